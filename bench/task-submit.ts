/**
 * A group task at full class size (`npm run bench:task`; BENCH_STUDENTS, BENCH_CONCURRENCY,
 * BENCH_CLASS, BENCH_STATEMENTS, BENCH_TABLES, DATABASE_POOL_SIZE). One server in this process on loopback (PGlite in memory unless DATABASE_URL is
 * set: then a scratch database on that server, dropped at the end), demo data, logging off, answers
 * not validated against the contract (as in production).
 *
 * Set-up (not measured): BENCH_STUDENTS students (2,000) in classes of BENCH_CLASS (50), one task
 * of a GAD-7 plan for all the classes, personal codes issued. Then every student signs in with the
 * task code plus number and name (as.c.task.login) and submits the sheet (as.c.exam.submit), from
 * BENCH_CONCURRENCY (50) concurrent clients in a worker thread, as fast as the server takes them.
 * Printed: the wall time of all students (the goal: within one minute), submissions per second,
 * p50/p95/p99 latency of sign-in and of submission, the CPU a student costs the server's thread and
 * the local PostgreSQL (from /proc, Linux), errors (must be 0), and the ratio to a bare Fastify
 * route driven the same way in the same run. The stored reports and the task's progress are checked against the
 * count at the end. `uptime` first and last: on a shared machine compare ratios, not raw figures.
 */
import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import Fastify from 'fastify';
import { testConfig } from '../apps/server/src/config.js';
import { startServer } from '../apps/server/src/server.js';
import { md5Upper } from '../apps/server/src/domains/auth/passwords.js';
import { scratchDatabase } from '../apps/server/src/db/admin.js';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { analyzeGrownTables, autovacuumWhileRunning } from '../apps/server/src/db/analyze.js';
import { printStatements, recordStatements, resetStatements } from './statements.js';

const students = Number(process.env.BENCH_STUDENTS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
const classSize = Number(process.env.BENCH_CLASS ?? 50);
const password = md5Upper(process.env.XINLI_DEMO_PASSWORD ?? 'demo123');
const sheet = Array.from({ length: 7 }, (_, i) => ({ no: i + 1, option: 1 + (i % 4) }));
/** BENCH_STATEMENTS=n: the first n students go one by one first, each step's statements printed (count and time per request). */
const traced = Number(process.env.BENCH_STATEMENTS ?? 0);
if (traced) recordStatements();
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

console.log(`load average before: ${load()} (${os.availableParallelism()} cores); ${students} students in classes of ${classSize}, ${concurrency} concurrent`);
const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, `xinli_bench_task_${process.pid}`) : undefined;
const running = await startServer(testConfig({ demo: true, dataDir: '', databaseUrl: scratch?.url, logLevel: 'silent', ...(process.env.DATABASE_POOL_SIZE ? { databasePoolSize: Number(process.env.DATABASE_POOL_SIZE) } : {}) }), {
  checkOutput: false,
});
const url = await running.app.listen({ port: 0, host: '127.0.0.1' });
const bare = Fastify();
bare.post('/bare', async () => ({ errorCode: 0, errorMsg: '', data: null }));
const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

async function send(target: string, body: unknown, token?: string) {
  const res = await fetch(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { errorCode: number; errorMsg: string; data: any };
}
async function post(name: string, body: unknown, token?: string) {
  const out = await send(`${url}/api/${name}/1.0.0/action`, body, token);
  if (out.errorCode !== 0) throw new Error(`${name}: ${out.errorCode} ${out.errorMsg}`);
  return out.data;
}

/** Runs `n` jobs from `concurrency` workers; answers the wall time in ms. */
async function drive(n: number, job: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await job(next++);
    }),
  );
  return performance.now() - t0;
}
/**
 * The clients run in a worker thread, as phones would be elsewhere: in the server's own thread
 * their HTTP work (fetch) took about a tenth of the event loop the server is measured on. They send
 * with node:http on kept-alive sockets, not fetch: on the same two cores as the server, fetch's
 * own work held the bare route to 1,770–2,160 requests a second (4,640–6,330 with node:http) and
 * took CPU from the server it measures (students a second +7 to +24 % with node:http). Plain
 * JavaScript (a worker does not take tsx's loader): each of `concurrency` clients takes the next
 * student and signs in, agrees to the notice when not yet agreed, and submits; or sends to the bare
 * route. Answers the wall time and each step's latencies.
 */
const CLIENTS = `
const { parentPort, workerData: w } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: w.concurrency });
const send = (target, body, token) => new Promise((resolve, reject) => {
  const data = JSON.stringify(body);
  const req = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...(token ? { token } : {}) } }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => { try { resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))); } catch (e) { reject(e); } });
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end(data);
});
const action = (name) => w.url + '/api/' + name + '/1.0.0/action';
const out = { loginMs: [], agreeMs: [], submitMs: [], errors: 0, firstErrors: [] };
const timed = async (times, run) => { const t = performance.now(); const r = await run(); times.push(performance.now() - t); return r; };
async function answer(person) {
  const login = await timed(out.loginMs, () => send(action('as.c.task.login'), { taskcode: w.taskcode, ...person }));
  if (login.errorCode !== 0) throw new Error('login ' + login.errorCode + ' ' + login.errorMsg);
  const token = login.data.token;
  if (!login.data.privacy.agreed) {
    const agreed = await timed(out.agreeMs, () => send(action('as.c.exam.agreeNotice'), { version: login.data.privacy.version }, token));
    if (agreed.errorCode !== 0) throw new Error('agree ' + agreed.errorCode + ' ' + agreed.errorMsg);
  }
  const done = await timed(out.submitMs, () => send(action('as.c.exam.submit'), { formcode: 'GAD7', answers: w.sheet }, token));
  if (done.errorCode !== 0) throw new Error('submit ' + done.errorCode + ' ' + done.errorMsg);
}
let next = 0;
const job = w.bare ? () => send(w.bare, {}) : (i) => answer(w.people[i]).catch((e) => { out.errors++; if (out.firstErrors.length < 5) out.firstErrors.push(String(e)); });
const t0 = performance.now();
Promise.all(Array.from({ length: w.concurrency }, async () => { while (next < w.n) await job(next++); })).then(() => parentPort.postMessage({ ...out, wall: performance.now() - t0 }));
`;
interface ClientRun {
  wall: number;
  loginMs: number[];
  agreeMs: number[];
  submitMs: number[];
  errors: number;
  firstErrors: string[];
}
function clients(work: { bare: string; n: number } | { url: string; taskcode: string; sheet: unknown; people: unknown[]; n: number }): Promise<ClientRun> {
  const worker = new Worker(CLIENTS, { eval: true, workerData: { concurrency, ...work } });
  return new Promise((resolve, reject) => {
    worker.once('message', (run: ClientRun) => void worker.terminate().then(() => resolve(run)));
    worker.once('error', reject);
  });
}
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
const ms = (v: number) => `${v.toFixed(1).padStart(7)} ms`;

// ---------- set-up (not measured) ----------
const t0 = performance.now();
const staff = (await post('as.m.user.login', { username: 'school', pwd: password })).token as string;
const { plancode } = await post('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: `压测计划${process.pid}`, formcodes: ['GAD7'] }, staff);
const people: { studentno: string; realname: string }[] = [];
const teamids: string[] = [];
for (let c = 0; c * classSize < students; c++) {
  const { teamid } = await post('as.m.assess.insertAssessTeam', { kind: 'class', school: '压测中学', year: '2026', term: '第一学期', grade: '高一', classname: `${c + 1}班-${process.pid}`, deptname: '' }, staff);
  teamids.push(teamid);
  for (let i = c * classSize; i < Math.min(students, (c + 1) * classSize); i++) {
    const person = { studentno: `B${String(i).padStart(5, '0')}`, realname: `压测学生${i}` };
    await post('as.m.assess.insertAssessTeamCUser', { teamid, ...person, gender: i % 2 ? '01' : '02' }, staff);
    people.push(person);
  }
}
const start = new Date(Date.now() - 3_600_000).toISOString();
const end = new Date(Date.now() + 3_600_000).toISOString();
const { taskid, taskcode } = await post('as.m.assess.insertAssessTask', { taskname: '压测任务', plancode, teamids, startat: start, endat: end }, staff);
const issued = await post('as.m.assess.insertAssessTeamRosterTask', { taskid }, staff);
if (issued.issued !== students) throw new Error(`issued ${issued.issued} codes, expected ${students}`);
// A roster is imported days before its screening, and the database has analyzed it by then: the
// plans of the run are made on its real size, not on what the tables held a few seconds ago.
await analyzeGrownTables(running.database.db);
console.log(`set-up: ${teamids.length} classes, ${students} students, codes issued, tables analyzed, in ${((performance.now() - t0) / 1000).toFixed(1)} s (not measured)`);

// ---------- the bare route, driven the same way ----------
await clients({ bare: `${bareUrl}/bare`, n: 200 }); // warm-up
const bareMs = (await clients({ bare: `${bareUrl}/bare`, n: students * 2 })).wall;
const bareRate = (students * 2) / (bareMs / 1000);
console.log(`(a) bare Fastify route: ${bareRate.toFixed(0)} req/s (${students * 2} requests)`);

// ---------- the class answering ----------
if (traced) {
  // One by one, each step on its own, so each step's statements are its own (not in the figures below).
  resetStatements();
  const logins: { token: string; version: number }[] = [];
  for (let i = 0; i < traced; i++) {
    const data = await post('as.c.task.login', { taskcode, ...people[i]! });
    logins.push({ token: data.token, version: data.privacy.version });
  }
  printStatements('sign-in (as.c.task.login), one at a time', traced);
  for (const { token, version } of logins) await post('as.c.exam.agreeNotice', { version }, token);
  printStatements('agreeing (as.c.exam.agreeNotice), one at a time', traced);
  for (const { token } of logins) await post('as.c.exam.submit', { formcode: 'GAD7', answers: sheet }, token);
  printStatements('submit (as.c.exam.submit), one at a time', traced);
}
const measured = students - traced;
const tablesBefore = await tableReads();
const cpuBefore = { server: serverThreadCpu(), database: databaseCpu() };
// Autovacuum's part in a real screening (a table analyzed each time it grew by a tenth, checked every
// minute), in the bench's time: the run packs a school's 45 minutes into seconds, so every second.
// On PGlite the server's own stand-in vacuums too; PostgreSQL's autovacuum does that there.
const stopAutovacuum = autovacuumWhileRunning(running.database.db, { everyMs: 1000, vacuum: running.database.kind === 'pglite' }, (err) => console.error(err));
const run = await clients({ url, taskcode, sheet, people: people.slice(traced), n: measured });
await stopAutovacuum();
const { wall, errors, firstErrors } = run;
const cpu = { server: serverThreadCpu() - cpuBefore.server, database: databaseCpu() - cpuBefore.database };
await printTableReads(tablesBefore);
if (traced) printStatements(`the ${measured} students at ${concurrency} concurrent (all steps mixed; per student)`, measured);
const [loginMs, agreeMs, submitMs] = [run.loginMs, run.agreeMs, run.submitMs].map((times) => times.sort((a, b) => a - b)) as [number[], number[], number[]];
const rate = measured / (wall / 1000);
const requests = loginMs.length + agreeMs.length + submitMs.length;
const requestRate = requests / (wall / 1000);
console.log(`(b) ${measured} students signed in, agreed and submitted in ${(wall / 1000).toFixed(1)} s: ${rate.toFixed(1)} submissions/s (${requestRate.toFixed(0)} req/s, x${(requestRate / bareRate).toFixed(3)} of (a))`);
console.log(`    sign-in (as.c.task.login)     p50 ${ms(pct(loginMs, 50))}  p95 ${ms(pct(loginMs, 95))}  p99 ${ms(pct(loginMs, 99))}  (goal p95 <= 200 ms: ${pct(loginMs, 95) <= 200 ? 'met' : 'NOT met'})`);
console.log(`    agree   (as.c.exam.agreeNotice) p50 ${ms(pct(agreeMs, 50))}  p95 ${ms(pct(agreeMs, 95))}  p99 ${ms(pct(agreeMs, 99))}`);
console.log(`    submit  (as.c.exam.submit)    p50 ${ms(pct(submitMs, 50))}  p95 ${ms(pct(submitMs, 95))}  p99 ${ms(pct(submitMs, 99))}  (goal p95 <= 150 ms: ${pct(submitMs, 95) <= 150 ? 'met' : 'NOT met'})`);
const cpuMs = (us: number) => `${(us / 1000 / measured).toFixed(1)} ms`;
console.log(
  cpu.database
    ? `    CPU a student: the server's thread ${cpuMs(cpu.server)} (its event loop ${((cpu.server / 1000 / wall) * 100).toFixed(0)} % busy), PostgreSQL ${cpuMs(cpu.database)}`
    : '    CPU a student: read from /proc on Linux, with PostgreSQL on this machine',
);
console.log(`    errors ${errors}${firstErrors.length ? `: ${firstErrors.join('; ')}` : ''}`);

// ---------- what was stored ----------
const progress = await post('as.m.assess.getAssessTaskProgress', { taskid }, staff);
console.log(`stored: progress finished ${progress.finished} of ${progress.total}, not started ${progress.notstarted}, in progress ${progress.inprogress}`);
const counted = await countedFigures();
console.log(`statistics: ${counted.classes} reports in the classes' figures, ${counted.stats} in the institutions' of ${counted.reports} counted reports`);
const allCounted = progress.finished === students - errors && counted.classes === progress.finished && counted.stats === counted.reports;
console.log(`goal all ${students} within 60 s: ${wall <= 60_000 ? 'met' : 'NOT met'}; errors 0: ${errors === 0 ? 'met' : 'NOT met'}; every submission counted: ${allCounted ? 'met' : 'NOT met'}`);

/** CPU time (µs) so far of the processes (or threads) whose /proc stat files `paths` lists (Linux; 0 elsewhere). */
function cpuOf(paths: string[], keep: (stat: string) => boolean = () => true): number {
  let ticks = 0;
  for (const file of paths) {
    let stat: string;
    try {
      stat = fs.readFileSync(file, 'utf8');
    } catch {
      continue; // ended while read
    }
    if (!keep(stat)) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return (ticks * 1_000_000) / 100; // USER_HZ is 100 on Linux
}
/**
 * The local PostgreSQL server's processes and the server's own thread (the main thread: the
 * clients' worker, the pg pool's and libuv's threads are others): with both, which side of the
 * loopback a student's time is spent on.
 */
function databaseCpu(): number {
  if (!fs.existsSync('/proc/self/task')) return 0;
  return cpuOf(fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map((p) => `/proc/${p}/stat`), (stat) => stat.includes('(postgres)'));
}
function serverThreadCpu(): number {
  return fs.existsSync('/proc/self/task') ? cpuOf([`/proc/self/task/${process.pid}/stat`]) : 0;
}

/**
 * BENCH_TABLES=1 (PostgreSQL): the rows each table gave a student, by sequential scan and by index,
 * from the statistics PostgreSQL keeps per table; a count that grows with the students is a read
 * that grows with its table. Waits 11 s each time: an idle connection reports its counts up to 10 s late.
 */
async function tableReads(): Promise<Map<string, number[]> | undefined> {
  if (!process.env.BENCH_TABLES || !scratch) return undefined;
  await new Promise((r) => setTimeout(r, 11_000));
  const { rows } = (await running.database.db.execute(
    sql`select relname, seq_scan, seq_tup_read, idx_scan, idx_tup_fetch, n_tup_ins + n_tup_upd + n_tup_del as written from pg_stat_user_tables`,
  )) as unknown as { rows: Record<string, string>[] };
  return new Map(rows.map((r) => [r.relname!, [r.seq_scan, r.seq_tup_read, r.idx_scan, r.idx_tup_fetch, r.written].map(Number)]));
}
async function printTableReads(before: Map<string, number[]> | undefined) {
  const after = await tableReads();
  if (!before || !after) return;
  console.log(`  rows a student, by table (BENCH_TABLES): seq scans, rows they read, index scans, rows fetched, rows written`);
  const lines = [...after].map(([table, now]) => [table, now.map((v, i) => (v - (before.get(table)?.[i] ?? 0)) / measured)] as const);
  for (const [table, d] of lines.filter(([, d]) => d.some((v) => v > 0)).sort((a, b) => b[1][1]! + b[1][3]! - (a[1][1]! + a[1][3]!)))
    console.log(`      ${table.padEnd(28)} ${d.map((v) => v.toFixed(2).padStart(9)).join(' ')}`);
}

/** The task's reports in the classes' statistics, and all reports in the institutions' against the reports themselves. */
async function countedFigures() {
  const one = async (q: ReturnType<typeof sql>) => Number(((await running.database.db.execute(q)) as unknown as { rows: { n: number }[] }).rows[0]!.n);
  const teams = sql.join(teamids.map((t) => sql`${t}`), sql`, `);
  return {
    classes: await one(sql`select coalesce(sum(n), 0)::int as n from stats_team where grain = 'd' and teamid in (${teams})`),
    stats: await one(sql`select coalesce(sum(n), 0)::int as n from stats_count where grain = 'd'`),
    reports: await one(sql`select count(*)::int as n from assessment a join cuser c on c.cusercode = a.cusercode where a.hidden = 0 and a.voided = 0 and c.deletedat is null`),
  };
}

// ---------- the floor: the same rows, one transaction each, straight through pg ----------
if (scratch) {
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  const codes = sql.join(teamids.map((t) => sql`${t}`), sql`, `);
  const { rows } = (await running.database.db.execute(sql`
    select to_jsonb(a) as report, coalesce((select jsonb_agg(i) from assessment_indicator i where i.assessid = a.assessid), '[]') as indicators
    from assessment a where a.assesscode in (select assesscode from task_person where teamid in (${codes}))`)) as unknown as { rows: { report: unknown; indicators: unknown }[] };
  await running.database.db.execute(sql`delete from assessment where assesscode in (select assesscode from task_person where teamid in (${codes}))`);
  const floorMs: number[] = [];
  let k = 0;
  const floorWall = await drive(rows.length, async () => {
    const r = rows[k++]!;
    const t = performance.now();
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('insert into assessment select * from jsonb_populate_record(null::assessment, $1)', [JSON.stringify(r.report)]);
      await client.query('insert into assessment_indicator select * from jsonb_populate_recordset(null::assessment_indicator, $1)', [JSON.stringify(r.indicators)]);
      await client.query('commit');
    } finally {
      client.release();
    }
    floorMs.push(performance.now() - t);
  });
  await pool.end();
  floorMs.sort((a, b) => a - b);
  const again = await countedFigures();
  console.log(`(f) floor: the same ${rows.length} reports and their indicator rows, one transaction each through pg, ${concurrency} concurrent: ${(rows.length / (floorWall / 1000)).toFixed(1)} reports/s, p50 ${ms(pct(floorMs, 50))}  p95 ${ms(pct(floorMs, 95))}; submit p95 x${(pct(submitMs, 95) / pct(floorMs, 95)).toFixed(1)} of it`);
  console.log(`    after the floor: ${again.classes} in the classes' figures, ${again.stats} of ${again.reports} counted: ${again.classes === rows.length && again.stats === again.reports ? 'still exact' : 'NOT exact'}`);
} else console.log('(f) floor: on PostgreSQL only (DATABASE_URL)');

await bare.close();
await running.stop();
await scratch?.drop();
console.log(`load average after: ${load()}`);
if (errors) process.exitCode = 1;
