/**
 * Another caller's latency while hostile bodies arrive (`npm run bench:body`; issue 27 item 1: a ping's
 * worst latency under 100 ms). Starts the real server (tsx apps/server/src/main.ts, embedded demo
 * database in a scratch folder, its own process) on a free loopback port, signs in the demo `school`,
 * then measures a signed-in as.m.system.ping sent one after another:
 *   (0) baseline, nothing else running;
 *   (1) while BENCH_CLIENTS (default 6) unauthenticated clients each send BENCH_BURST (default 8) bodies of
 *       11 MiB of nested `[` to as.m.access.updateToOSS, and as many of 1.7 MiB to as.m.user.login,
 *       at full speed (the probe's two attacks), alternating with 11 MiB of values nested 60 deep (only
 *       the size can refuse those);
 *   (2) while the same school uploads a 14 MB body it is allowed (a 10 MB file in base64: parsed off the
 *       event loop) BENCH_UPLOADS (default 3) times;
 *   (3) while the demo `eldercare` previews a roster import of 16 MB of base64 (the largest allowed)
 *       as many times: a file that is no workbook, refused once decoded.
 * Prints p50 / p99 / max of the ping in each phase, the attack's answers and bytes the clients got to
 * send. Loopback only, bounded counts. Nothing is asserted: the figures are for the README.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { md5Upper } from '../apps/server/src/domains/auth/passwords.js';
import { freePort } from '../apps/server/src/test/ports.js';

const clients = Number(process.env.BENCH_CLIENTS ?? 6);
const burst = Number(process.env.BENCH_BURST ?? 8);
const uploads = Number(process.env.BENCH_UPLOADS ?? 3);
const root = path.resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-bench-body-'));
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    XINLI_DEMO: '1',
    LOG_LEVEL: 'info',
    JOB_POLL_MS: '0',
    DATABASE_URL: '',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
server.stdout.on('data', (c) => (out += c));
server.stderr.on('data', (c) => (out += c));
const base = `http://127.0.0.1:${port}`;
try {
  await waitForServer();
  const token = await signIn();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  const baseline = await pingWhile(token, agent, sleep(3000));
  report('(0) baseline, nothing else', baseline);

  const attack = floodAll();
  const during = await pingWhile(token, agent, attack.done);
  report(`(1) during ${clients} clients x ${burst} unauthenticated 11 MiB / 1.7 MiB bodies`, during);
  const a = await attack.done;
  console.log(
    `    attack answers: ${JSON.stringify(a.statuses)}; bytes the clients got to send: ${(a.sent / MiB).toFixed(1)} MiB of ${(a.offered / MiB).toFixed(0)} MiB offered`,
  );

  // Encoded before the pings start: turning 14 MB of text into bytes would hold this process's own
  // event loop (the pings' clock) for tens of milliseconds and show as the server's latency.
  const uploadBody = Buffer.from(JSON.stringify({ use: 'video', filename: 'm.mp4', data: Buffer.alloc(10 * MiB, 7).toString('base64') }));
  const up = uploadAll(token, uploads, uploadBody);
  const duringUpload = await pingWhile(token, agent, up);
  report(`(2) during ${uploads} allowed 14 MB uploads by a signed-in caller`, duringUpload);
  console.log(`    upload answers: ${JSON.stringify(await up)}`);

  // A roster import's body as large as allowed (12 MB of file, 16 MB of base64), by an institution
  // with the older-adults roster; not a workbook, so it is refused as soon as it is decoded: what
  // is timed is the body and its base64, not the reading of rows (that runs in a worker).
  const importer = await signIn('eldercare');
  const rosterBody = Buffer.from(JSON.stringify({ filename: 'r.xlsx', content: Buffer.alloc(11_999_000, 7).toString('base64') }));
  const im = uploadAll(importer, uploads, rosterBody, 'as.m.cuser.importZLBCUserFromExcel');
  const duringImport = await pingWhile(token, agent, im);
  report(`(3) during ${uploads} allowed 16 MB roster previews by another caller`, duringImport);
  console.log(`    import answers: ${JSON.stringify(await im)}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

function report(title: string, ms: number[]) {
  const sorted = [...ms].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  console.log(
    `${title.padEnd(72)} pings ${String(ms.length).padStart(4)}   p50 ${at(0.5).toFixed(1).padStart(6)} ms   p99 ${at(0.99).toFixed(1).padStart(6)} ms   max ${sorted[sorted.length - 1]!.toFixed(1).padStart(6)} ms`,
  );
}

/** Pings one after another (10 ms apart) until `until` settles; answers each latency. */
async function pingWhile(token: string, agent: http.Agent, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const ms: number[] = [];
  while (!done || ms.length < 20) {
    const t = performance.now();
    const res = await request('/api/as.m.system.ping/1.0.0/action', '{}', { token }, agent);
    if (!res.body.includes('"errorCode":0')) throw new Error(`ping failed: ${res.status} ${res.body}`);
    ms.push(performance.now() - t);
    await sleep(10);
  }
  return ms;
}

/** The probe's attacks, bounded: each client sends `burst` bodies, one after another. */
function floodAll() {
  const statuses: Record<string, number> = {};
  let sent = 0;
  let offered = 0;
  const kinds = [
    { name: 'as.m.access.updateToOSS', size: 11 * MiB, first: '[', rest: '[' },
    { name: 'as.m.user.login', size: 1.7 * MiB, first: '[', rest: '[' },
    { name: 'as.m.access.updateToOSS', size: 11 * MiB, first: '['.repeat(60), rest: '0,' },
  ];
  const client = async (c: number) => {
    for (let i = 0; i < burst; i++) {
      const kind = kinds[(c + i) % kinds.length]!;
      offered += kind.size;
      const r = await hostile(kind.name, kind.size, kind.first, kind.rest);
      sent += r.sent;
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_x, c) => client(c))).then(() => ({ statuses, sent, offered }));
  return { done };
}

/** One hostile body, chunked, written as fast as the socket takes it, until the server answers. */
function hostile(name: string, size: number, first: string, rest: string): Promise<{ status: number | string; sent: number }> {
  return new Promise((resolve) => {
    const chunk = Buffer.from(rest.repeat(Math.ceil((64 * 1024) / rest.length)).slice(0, 64 * 1024));
    let sent = 0;
    let answered = false;
    const req = http.request(`${base}/api/${name}/1.0.0/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      agent: false,
    });
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, sent });
      });
    });
    req.on('error', (err: Error & { code?: string }) => {
      if (!answered) resolve({ status: err.code ?? 'error', sent });
    });
    const write = () => {
      while (!answered && sent < size) {
        const piece = sent === 0 ? Buffer.concat([Buffer.from(first), chunk]) : chunk;
        sent += piece.length;
        if (!req.write(piece)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

/** A signed-in caller's allowed large bodies, one after another (by default uploads of a 10 MB file that is no image: refused by the action after the parse). */
async function uploadAll(token: string, n: number, body: Buffer, action = 'as.m.access.updateToOSS') {
  const answers: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await request(`/api/${action}/1.0.0/action`, body, { token }, false);
    answers.push(`${res.status} ${JSON.parse(res.body).errorCode}`);
  }
  return answers;
}

function request(
  url: string,
  body: string | Buffer,
  headers: Record<string, string>,
  agent: http.Agent | false,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function signIn(username = 'school'): Promise<string> {
  const res = await request(
    '/api/as.m.user.login/1.0.0/action',
    JSON.stringify({ username, pwd: md5Upper(process.env.XINLI_DEMO_PASSWORD ?? 'demo123') }),
    {},
    false,
  );
  return JSON.parse(res.body).data.token as string;
}

async function waitForServer() {
  for (let i = 0; i < 1500; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited:\n${out}`);
    const up = await request('/api/as.m.system.ping/1.0.0/action', '{}', {}, false).catch(() => null);
    if (up) return;
    await sleep(200);
  }
  throw new Error(`the server did not start:\n${out}`);
}

function sleep(ms: number) {
  return new Promise<void>((r) => setTimeout(r, ms));
}
