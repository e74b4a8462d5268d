/**
 * Report export (issue 12): as.m.exam.exportCUserDetailData of BENCH_ROWS reports (default
 * 1,000,000), one row per report with its indicator columns, downloaded over HTTP from the
 * production server (apps/server/dist/main.js, compiled here first, one process) and read as fast
 * as the socket allows. Prints the time, the bytes, and the peak RSS of that server process (its
 * VmHWM, which includes the ~170 MiB the idle server holds), next to a baseline measured in the
 * same run: a bare exceljs streaming writer writing the same number of rows of the same width in
 * a process that loads nothing else. Asserts nothing. `npm run bench:export`
 *
 * Database: a scratch database on DATABASE_URL (or TEST_DATABASE_URL) when set, dropped at the
 * end; else PGlite in a temporary folder, whose memory is then inside the server process (its RSS
 * includes the database engine, so the PostgreSQL figure is the one to compare against 300 MB).
 * The reports are inserted with SQL (generate_series), not scored: the export reads stored rows.
 *
 * Why the server is the compiled one: under tsx the same server holds some 310 MiB before any
 * request (the transpiled sources and their maps), which says nothing about a deployment.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
/** The detail export's width for one form with one indicator: 10 report columns, 4 status columns, score and level. */
const WIDTH = 16;
const PASSWORD = 'demo123';
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
const peakMiB = () => process.resourceUsage().maxRSS / 1024;

/** A sink that counts bytes and drops them. */
const counter = () => {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done();
    },
  });
  return { sink, bytes: () => bytes };
};

const mode = process.argv[2];

if (mode === '--baseline') {
  const { default: ExcelJS } = await import('exceljs');
  const t = performance.now();
  const { sink, bytes } = counter();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet('Reports');
  ws.addRow(Array.from({ length: WIDTH }, (_, i) => `column ${i + 1}`)).commit();
  const at = new Date('2026-01-01T00:00:00Z').getTime();
  for (let i = 0; i < ROWS; i++) {
    ws.addRow([
      `B${String(i).padStart(9, '0')}`,
      '测评对象',
      '女',
      '滨江第一中学',
      '学生',
      '',
      '',
      '患者健康问卷抑郁量表（PHQ-9）',
      1,
      new Date(at - i * 1000).toISOString().slice(0, 19),
      i % 5,
      i % 5,
      '否',
      '否',
      i % 28,
      i % 5,
    ]).commit();
    // Wait while the zip's input is full, as the export does (kit/xlsx.ts): without it rows pile up in memory.
    if (i % 1000 === 999) {
      const input = (ws as unknown as { stream: { pipes: (NodeJS.EventEmitter & { _writableState: { needDrain: boolean } })[] } }).stream
        .pipes[0]!;
      if (input._writableState.needDrain) await once(input, 'drain');
    }
  }
  ws.commit();
  await wb.commit();
  console.log(JSON.stringify({ ms: performance.now() - t, bytes: bytes(), peak: peakMiB() }));
  process.exit(0);
}

// ---------- the parent: prepare the database, run the baseline, serve and download, print ----------
const { sql } = await import('drizzle-orm');
await import('./data-key.js');
const { openDatabase } = await import('../apps/server/src/db/database.js');
const { readyEncryption } = await import('../apps/server/src/encryption.js');
const { loadConfig } = await import('../apps/server/src/config.js');
const { scratchDatabase } = await import('../apps/server/src/db/admin.js');
const { syncReferenceData } = await import('../apps/server/src/seed/reference.js');
const { seedDemo } = await import('../apps/server/src/seed/demo.js');
const { md5Upper } = await import('../apps/server/src/domains/auth/passwords.js');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Memory figures of a process from /proc (Linux): VmRSS now, VmHWM its peak, in MiB. */
const vm = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
};

/** The compiled server on a free port, one process, on the prepared database; resolves once it listens. */
async function serve(env: Record<string, string>) {
  // The flags of `npm run serve`: a 32 MiB young generation lets an export's per-batch garbage die
  // young instead of being promoted (the old generation grew by ~130 MiB before a full GC).
  const child = spawn(process.execPath, ['--enable-source-maps', '--max-semi-space-size=32', path.join(root, 'apps/server/dist/main.js')], {
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', SERVER_PROCESSES: '1', XINLI_DEMO: '0', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Xinli console: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it listened:\n${out}`)));
  });
  return { base, pid: child.pid!, stop: async () => (child.kill('SIGTERM'), await once(child, 'exit')) };
}

/** Signs in as the school and downloads the detail export of all its reports; the server's memory before and at the end. */
async function download(base: string, pid: number) {
  const post = (name: string, body: unknown, token?: string) =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        `${base}/api/${name}/1.0.0/action`,
        { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { token } : {}) } },
        resolve,
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const login = await post('as.m.user.login', { username: 'school', pwd: md5Upper(PASSWORD) });
  const chunks: Buffer[] = [];
  for await (const c of login) chunks.push(c as Buffer);
  const token = (JSON.parse(Buffer.concat(chunks).toString()) as { data: { token: string } }).data.token;
  const before = vm(pid).rss;
  const t = performance.now();
  const res = await post('as.m.exam.exportCUserDetailData', { musercode: 'I0001' }, token);
  const { sink, bytes } = counter();
  await pipeline(res, sink);
  return { ms: performance.now() - t, bytes: bytes(), peak: vm(pid).peak, before, status: res.statusCode };
}

const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const scratch = serverUrl ? await scratchDatabase(serverUrl, `xinli_export_bench_${process.pid}`) : undefined;
const dataDir = scratch ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-export-bench-'));
try {
  let t = performance.now();
  const database = await openDatabase(scratch ? { url: scratch.url } : { dataDir });
  await syncReferenceData(database.db);
  await readyEncryption(database.db, loadConfig(), false);
  await seedDemo(database.db, PASSWORD, new Date(), { reports: false });
  // N reports of the school's persons (round robin), PHQ-9 with its total indicator, one a second apart.
  await database.db.execute(sql`
    insert into assessment (assessid, formcode, version, musercode, cusercode, plancode, stagecode, appid, answers, scores, mentalstate, level, colour, warning, createdat)
    select 'B' || lpad(g::text, 9, '0'), 'PHQ9', 1, 'I0001', p.cusercode, '', '', '000000002', '[]'::jsonb, '{}'::jsonb, g % 5, g % 5, '#52c41a', (g % 7 = 0)::int,
           timestamptz '2026-01-01 00:00:00+00' - make_interval(secs => g)
    from generate_series(1, ${ROWS}) g
    join (select cusercode, (row_number() over (order by cusercode)) - 1 as i, count(*) over () as n from cuser where musercode = 'I0001') p on p.i = g % p.n`);
  await database.db.execute(sql`
    insert into assessment_indicator (assessid, formcode, code, score, level, colour, mood)
    select assessid, 'PHQ9', 'TOTAL', (substr(assessid, 2)::int % 28), level, colour, 'depressed' from assessment where assessid like 'B%'`);
  await database.db.execute(sql`analyze`);
  await database.close();
  console.log(
    `database: ${scratch ? 'postgres (scratch database)' : 'PGlite (its engine runs inside the server process)'}; ${ROWS.toLocaleString('en')} reports inserted in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  execFileSync(process.execPath, [path.join(root, 'apps/server/scripts/build.mjs')], { stdio: 'inherit' });
  const self = fileURLToPath(import.meta.url);
  t = performance.now();
  const baseline = JSON.parse(
    execFileSync(process.execPath, [...process.execArgv, self, '--baseline'], { encoding: 'utf8', env: process.env, maxBuffer: 1 << 20 })
      .trim()
      .split('\n')
      .pop()!,
  ) as { ms: number; bytes: number; peak: number };
  const server = await serve(scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: dataDir! });
  const exported = await download(server.base, server.pid).finally(server.stop);
  const line = (title: string, r: { ms: number; bytes: number; peak: number }) =>
    `${title.padEnd(44)} ${(r.ms / 1000).toFixed(1).padStart(6)} s  ${mib(r.bytes).padStart(7)} MiB file  peak RSS ${Math.round(r.peak).toString().padStart(4)} MiB`;
  console.log(line(`(a) bare exceljs stream, ${ROWS.toLocaleString('en')} rows × ${WIDTH}`, baseline));
  console.log(
    `${line('(b) exportCUserDetailData, compiled server', exported)}   x${(exported.ms / baseline.ms).toFixed(2)} time, x${(exported.peak / baseline.peak).toFixed(2)} peak RSS of (a); HTTP ${exported.status}; RSS before the request ${Math.round(exported.before)} MiB`,
  );
  console.log(`total ${((performance.now() - t) / 1000).toFixed(1)} s`);
} finally {
  await scratch?.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
