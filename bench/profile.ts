/**
 * Where a signed-in request's time goes (`npx tsx bench/profile.ts`; PROFILE_REQUESTS, PROFILE_CONNECTIONS,
 * PROFILE_ACTION, PROFILE_BODY, PROFILE_USER, PROFILE_KIND, LOG_LEVEL, DATABASE_URL, PROFILE_SERVER_CMD).
 * Starts the server in its own process with bench/profile-hook.mjs, signs in, sends PROFILE_REQUESTS
 * requests one after another (no concurrency: the figure is the cost of one request; with
 * PROFILE_CONNECTIONS=n from n connections at once, as bench:api drives them, where work shared by the
 * requests in flight is shared), stops the server and reads its profile: CPU, or with PROFILE_KIND=heap
 * the bytes allocated (where the garbage collector's share of the CPU comes from). Every sample is
 * charged to the first frame, from the leaf up, that belongs to a known step (logging, query building,
 * the database driver, zod, Fastify, ...), so a JSON.stringify inside pino counts as logging; samples
 * outside the measured window are not taken (bench/profile-hook.mjs starts and stops the profiler
 * around it). Prints µs of CPU (or bytes) per request per step, and the mean wall time.
 * With DATABASE_URL a scratch database xinli_profile_<pid> is created there and dropped at the end.
 * Background jobs are off (JOB_POLL_MS=0 unless set): the demo queues a few hundred warning jobs at
 * start, whose work would otherwise be charged to the requests.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { md5Upper } from '../apps/server/src/domains/auth/passwords.js';
import { scratchDatabase } from '../apps/server/src/db/admin.js';
import { freePort } from '../apps/server/src/test/ports.js';

const requests = Number(process.env.PROFILE_REQUESTS ?? 3000);
const connections = Math.max(1, Number(process.env.PROFILE_CONNECTIONS ?? 1));
const actionName = process.env.PROFILE_ACTION ?? 'as.m.system.ping';
const actionBody = JSON.parse(process.env.PROFILE_BODY ?? '{}');
const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-profile-'));

const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, `xinli_profile_${process.pid}`) : undefined;
const databaseUrl = scratch?.url;

const port = await freePort();
const out = path.join(dir, 'server.cpuprofile');
const env: NodeJS.ProcessEnv = { ...process.env, PROFILE_OUT: out, PORT: String(port), XINLI_DEMO: '1', DATA_DIR: path.join(dir, 'db'), LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', SERVER_PROCESSES: '1', JOB_POLL_MS: process.env.JOB_POLL_MS ?? '0' };
if (databaseUrl) env.DATABASE_URL = databaseUrl;
else delete env.DATABASE_URL;
// The server's own entry, under the CPU profiler; its log goes to a file as in production.
const cmd = (process.env.PROFILE_SERVER_CMD ?? 'node --import tsx apps/server/src/main.ts').split(' ');
const log = fs.openSync(path.join(dir, 'server.log'), 'a');
const child = spawn(cmd[0]!, ['--import', './bench/profile-hook.mjs', ...cmd.slice(1)], { cwd: root, env, stdio: ['ignore', log, log] });
const url = `http://127.0.0.1:${port}`;

async function call(name: string, body: unknown, token?: string) {
  const res = await fetch(`${url}/api/${name}/1.0.0/action`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { errorCode: number; errorMsg: string; data: any };
}
for (;;) {
  if (child.exitCode !== null) throw new Error(`server exited: ${fs.readFileSync(path.join(dir, 'server.log'), 'utf8').slice(-1500)}`);
  try {
    await call('as.m.system.ping', {});
    break;
  } catch {
    await new Promise((r) => setTimeout(r, 50));
  }
}
const login = await call('as.m.user.login', { username: process.env.PROFILE_USER ?? 'school', pwd: md5Upper(process.env.XINLI_DEMO_PASSWORD ?? 'demo123') });
const token = login.data.token as string;
for (let i = 0; i < 300; i++) await call(actionName, actionBody, token); // warm-up (JIT), outside the window

const until = async (file: string) => {
  while (!fs.existsSync(file)) await new Promise((r) => setTimeout(r, 20));
};
child.kill('SIGUSR2');
await until(`${out}.started`);
const t0 = performance.now();
if (connections > 1) {
  // Under load: the same number of requests from `connections` at once, as bench:api drives them.
  const r = await autocannon({
    url: `${url}/api/${actionName}/1.0.0/action`,
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(actionBody),
    connections,
    amount: requests,
  });
  if (r.errors + r.non2xx) throw new Error(`${actionName}: ${r.errors} errors, ${r.non2xx} not 2xx`);
} else
  for (let i = 0; i < requests; i++) {
    const r = await call(actionName, actionBody, token);
    if (r.errorCode !== 0) throw new Error(`${actionName}: ${r.errorCode} ${r.errorMsg}`);
  }
const wallUs = ((performance.now() - t0) * 1000) / requests;
child.kill('SIGUSR2');
await until(out);
await new Promise((r) => setTimeout(r, 200)); // the file is written in one call; let it finish
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
await scratch?.drop();

// --- the profile ------------------------------------------------------------------------------
interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
/** A CPU profile as V8 writes it. */
interface CpuProfile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}
/** A sampling heap profile as V8 writes it: a tree whose nodes carry the bytes allocated in them. */
interface HeapNode {
  id: number;
  callFrame: Node['callFrame'];
  selfSize: number;
  children: HeapNode[];
}
const raw = JSON.parse(fs.readFileSync(out, 'utf8')) as CpuProfile | { head: HeapNode };
/** Either profile as nodes and what each leaf cost: µs of CPU, or bytes allocated. */
const nodes: Node[] = [];
const costs: [id: number, amount: number][] = [];
if ('head' in raw) {
  const flatten = (n: HeapNode) => {
    nodes.push({ id: n.id, callFrame: n.callFrame, children: n.children.map((c) => c.id) });
    if (n.selfSize) costs.push([n.id, n.selfSize]);
    n.children.forEach(flatten);
  };
  flatten(raw.head);
} else {
  nodes.push(...raw.nodes);
  raw.samples.forEach((id, i) => costs.push([id, raw.timeDeltas[i + 1] ?? raw.timeDeltas[i]!]));
}
const heap = 'head' in raw;
const byId = new Map(nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** Steps, first match wins (checked from the leaf frame up). */
const steps: [string, (f: Node['callFrame']) => boolean][] = [
  ['logging (pino, serializers, write)', (f) => /\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|@pinojs|on-exit-leak-free)\//.test(f.url) || /logger|log\.ts/.test(f.url)],
  ['query building (drizzle)', (f) => f.url.includes('/drizzle-orm/')],
  ['database driver (pg, pg-protocol)', (f) => /\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+|pgpass)\//.test(f.url)],
  ['PGlite (query in WASM)', (f) => f.url.includes('/@electric-sql/pglite/')],
  ['zod (input and output validation)', (f) => f.url.includes('/zod/')],
  ['security headers (helmet)', (f) => /\/(helmet|@fastify\/helmet)\//.test(f.url)],
  ['token hash (sha-256)', (f) => f.functionName === 'hashToken'],
  ['authentication and access (app code)', (f) => /domains\/auth\/(sessions|permissions|scope)\.ts/.test(f.url)],
  ['action route, context, envelope (app code)', (f) => /apps\/server\/src\/(http|app\.ts)/.test(f.url)],
  ['handler and other app code', (f) => /apps\/server\/src\/|packages\/contract\//.test(f.url)],
  ['app code (compiled bundle: route, auth, handler)', (f) => /apps\/server\/dist\//.test(f.url)],
  ['Fastify (routing, hooks, reply, JSON)', (f) => /\/(fastify|find-my-way|avvio|light-my-request|fast-json-stringify|secure-json-parse|@fastify\/[a-z-]+|fast-querystring|toad-cache|process-warning|abstract-logging)\//.test(f.url)],
  ['tsx loader', (f) => f.url.includes('/tsx/')],
  ['node core (http, net, timers)', (f) => f.url.startsWith('node:')],
];
const special = new Set(['(garbage collector)', '(idle)', '(program)', '(root)']);
const totals = new Map<string, number>();
const detail = new Map<string, number>();
for (const [id, amount] of costs) {
  let step: string | undefined;
  const leaf = byId.get(id)!.callFrame.functionName;
  if (special.has(leaf)) step = leaf === '(garbage collector)' ? 'garbage collection' : leaf === '(idle)' ? '(idle: waiting for I/O)' : '(program: native, unattributed)';
  // Node's own frames count only when nothing above them is a known step (a write of pino is logging).
  const [nodeCore, ...known] = [steps[steps.length - 1]!, ...steps.slice(0, -1)];
  for (let k: number | undefined = id; !step && k !== undefined; k = parent.get(k)) step = known.find(([, match]) => match(byId.get(k!)!.callFrame))?.[0];
  for (let k: number | undefined = id; !step && k !== undefined; k = parent.get(k)) if (nodeCore[1](byId.get(k)!.callFrame)) step = nodeCore[0];
  step ??= 'other';
  if (process.env.PROFILE_DETAIL && step.startsWith(process.env.PROFILE_DETAIL)) {
    const chain: string[] = [];
    for (let k: number | undefined = id; k !== undefined && chain.length < 8; k = parent.get(k)) {
      const f = byId.get(k)!.callFrame;
      chain.push(`${f.functionName || '(anon)'}@${f.url.split('/').slice(-2).join('/')}`);
    }
    const key = chain.join(' < ');
    detail.set(key, (detail.get(key) ?? 0) + amount);
  }
  totals.set(step, (totals.get(step) ?? 0) + amount);
}

const unit = heap ? 'B' : 'µs';
console.log(
  `${heap ? 'allocation' : 'CPU'} profile of ${requests} ${connections > 1 ? `concurrent (${connections})` : 'sequential'} ${actionName} on ${databaseUrl ? 'postgres' : 'pglite'}, LOG_LEVEL=${env.LOG_LEVEL}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
);
console.log(`mean wall time per request (client side${connections > 1 ? `, ${connections} connections: the wall time over the requests` : ''}): ${wallUs.toFixed(0)} µs`);
let all = 0;
for (const [step, amount] of [...totals].sort((a, b) => b[1] - a[1])) {
  if (!step.startsWith('(idle')) all += amount;
  console.log(`${step.padEnd(46)} ${(amount / requests).toFixed(0).padStart(6)} ${unit}`);
}
for (const [k, amount] of [...detail].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${(amount / requests).toFixed(0).padStart(5)} ${unit}  ${k}`);
console.log(`${(heap ? 'allocated per request' : 'server CPU per request (all but idle)').padEnd(46)} ${(all / requests).toFixed(0).padStart(6)} ${unit}`);
fs.closeSync(log);
if (!process.env.PROFILE_KEEP) fs.rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);
