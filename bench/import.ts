/**
 * Person roster import (issue 11, issue 33 §2): a ZLB (older adults) roster of BENCH_ROWS rows
 * (default 50,000) with the template's 10 columns, previewed and then committed in one transaction
 * by the persons domain's own import code, on embedded PGlite or, with DATABASE_URL, a scratch
 * database xinli_import_bench_<pid> on that server (dropped at the end).
 *
 * Prints the file size, the time of each phase and rows per second, the importing process's memory
 * (a child of its own, so building the file does not count): its RSS before the import and its peak
 * RSS above that (VmHWM, reset just before the import), and beside them the floor measured in the
 * same run: the same file read with the guarded reader plus ONE set-based insert of the same rows
 * (raw cell text, no checks, no sealing) into cuser, rolled back. Asserts nothing.
 * `npx tsx bench/import.ts`
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq, sql } from 'drizzle-orm';
import { openDatabase, type Db } from '../apps/server/src/db/database.js';
import { scratchDatabase } from '../apps/server/src/db/admin.js';
import { testConfig } from '../apps/server/src/config.js';
import { readyEncryption } from '../apps/server/src/encryption.js';
import { syncReferenceData } from '../apps/server/src/seed/reference.js';
import { seedDemo } from '../apps/server/src/seed/demo.js';
import { streamSheetRows } from '../apps/server/src/kit/upload/reader.js';
import { buildRosterTemplate, ROSTER_SHEET } from '../apps/server/src/domains/persons/roster.js';
import { commitRoster, previewRoster, rosterReads } from '../apps/server/src/domains/persons/import-handlers.js';
import { olderAdultRows, rosterFile, templateHeader } from '../apps/server/src/domains/persons/test-roster.js';
import { cuser } from '../apps/server/src/domains/persons/tables.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
const secs = (ms: number) => (ms / 1000).toFixed(2);
const perSecond = (n: number, ms: number) => Math.round(n / (ms / 1000)).toLocaleString('en');

const [, , flag, file] = process.argv;
if (flag !== '--run') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-import-bench-'));
  const roster = path.join(dir, 'roster.xlsx');
  const form = (await import('../apps/server/src/domains/scales/library/archive-forms.js')).olderArchive;
  const { parseDefinition } = await import('../apps/server/src/domains/scales/scoring/validate.js');
  const header = await templateHeader(await buildRosterTemplate(parseDefinition(form), { zh: '中老年人', en: 'Older adults' }));
  const bytes = await rosterFile(header, olderAdultRows(ROWS));
  fs.writeFileSync(roster, bytes);
  console.log(`load: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
  console.log(`roster: ${ROWS.toLocaleString('en')} rows × ${header.length} columns, ${mib(bytes.length)} MiB .xlsx (${mib(Math.ceil(bytes.length / 3) * 4)} MiB as base64 in the request body)`);
  process.stdout.write(execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--run', roster], { encoding: 'utf8', env: process.env }));
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

/** Resident memory now, and the peak since the last reset (Linux: /proc/self/status, clear_refs 5). */
const status = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
const resetPeak = () => fs.writeFileSync('/proc/self/clear_refs', '5');

const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, `xinli_import_bench_${process.pid}`) : undefined;
const database = await openDatabase(scratch ? { url: scratch.url } : {});
await syncReferenceData(database.db);
await readyEncryption(database.db, testConfig(), false);
await seedDemo(database.db, 'demo123', new Date(), { reports: false });
const bytes = fs.readFileSync(file!);
const opts = { musercode: 'I0003', appid: '000000004', bytes, lang: 'zh-CN' as const, now: new Date(), caller: 'I0003' };
const imported = async () =>
  Number((await database.db.select({ n: count() }).from(cuser).where(and(eq(cuser.musercode, 'I0003'), eq(cuser.source, 'import'))))[0]!.n);

const baseline = status('VmRSS');
resetPeak();
console.log(`database: ${scratch ? 'postgres (scratch database)' : 'PGlite in this process'}; RSS before the import ${Math.round(baseline)} MiB`);

let t = performance.now();
const preview = await previewRoster(database.db, opts);
const previewMs = performance.now() - t;
const previewPeak = status('VmHWM');
console.log(`preview: ${preview.total.toLocaleString('en')} rows checked, ${preview.problemcount} problems in ${secs(previewMs)} s (${perSecond(preview.total, previewMs)} rows/s)`);

t = performance.now();
const done = await commitRoster(database.db, opts);
const commitMs = performance.now() - t;
const peak = status('VmHWM');
console.log(
  `commit: ${done.imported.toLocaleString('en')} rows stored in one transaction in ${secs(commitMs)} s (${perSecond(done.imported, commitMs)} rows/s); persons from imports now ${(await imported()).toLocaleString('en')}; the file was read ${rosterReads.count} time(s)`,
);
const { ms: floorMs, read: readMs } = await floor(database.db);
console.log(`floor: the guarded reader plus one set-based insert of the same rows (rolled back): ${secs(floorMs)} s (reading ${secs(readMs)} s, the insert ${secs(floorMs - readMs)} s)`);
console.log(`import: preview + commit ${secs(previewMs + commitMs)} s = ${((previewMs + commitMs) / floorMs).toFixed(2)}× the floor`);
console.log(`memory: peak RSS ${Math.round(peak)} MiB, ${Math.round(peak - baseline)} MiB above the ${Math.round(baseline)} MiB before the import (preview alone: +${Math.round(previewPeak - baseline)} MiB)`);
await database.close();
await scratch?.drop();

/**
 * The floor: the file read whole with the guarded reader, then its rows (cell text as read, the
 * gender mapped so the table's check passes, the archive columns as one jsonb array) inserted with
 * one INSERT ... SELECT FROM unnest(...) into cuser, in a transaction rolled back.
 */
async function floor(db: Db): Promise<{ ms: number; read: number }> {
  const t0 = performance.now();
  const cols: string[][] = Array.from({ length: 7 }, () => []);
  let header = true;
  for await (const batch of streamSheetRows(bytes, { sheets: { name: ROSTER_SHEET, orFirst: true } })) {
    for (const { r, cells } of batch.rows) {
      if (header) {
        header = false;
        continue;
      }
      const s = (i: number) => (cells[i] === null || cells[i] === undefined ? '' : String(cells[i]));
      const archive = JSON.stringify(cells.slice(5).map((v, i) => ({ no: i + 1, value: v })).filter((a) => a.value !== null));
      [`F${r}`, s(0), s(1) === '男' ? '01' : '02', s(2), s(3), s(4), archive].forEach((v, i) => cols[i]!.push(v));
    }
  }
  const read = performance.now() - t0;
  const stamp = opts.now.toISOString();
  await db
    .transaction(async (tx) => {
      await tx.execute(floorInsert(cols, stamp));
      throw new Error('rollback');
    })
    .catch((e: Error) => {
      if (e.message !== 'rollback') throw e;
    });
  const ms = performance.now() - t0;
  return { ms, read };
}

/** The floor's one statement: every row through unnest over one text array per column. */
function floorInsert(cols: string[][], stamp: string) {
  const param = (v: string[]) => sql.param(v);
  return sql`
    insert into cuser (cusercode, musercode, appid, realname, gender, birthdate, phonenumber, phonehash, idcard, idcardhash, archive, source, importid, createdat, updatedat)
    select x.c, 'I0003', '000000004', x.n, x.g, nullif(x.b, '')::date, nullif(x.p, ''), nullif(x.p, ''), nullif(x.i, ''), nullif(x.i, ''), x.a::jsonb, 'import', 'IMFLOOR', ${stamp}::timestamptz, ${stamp}::timestamptz
    from unnest(${param(cols[0]!)}::text[], ${param(cols[1]!)}::text[], ${param(cols[2]!)}::text[], ${param(cols[3]!)}::text[], ${param(cols[4]!)}::text[], ${param(cols[5]!)}::text[], ${param(cols[6]!)}::text[]) as x(c, n, g, b, p, i, a)`;
}
