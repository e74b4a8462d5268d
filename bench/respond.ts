/**
 * The respondent path (`npm run bench:respond`; BENCH_RESPONDENTS, BENCH_CONCURRENCY). One server in
 * this process (PGlite in memory unless DATABASE_URL is set: then a scratch database on that
 * server, dropped at the end), demo data, logging off, answers not validated against the contract
 * (as in production). Printed, each with its ratio to the baseline measured the same way in the
 * same run:
 *   (base) signed-in no-op as.m.system.ping, N calls from C concurrent clients;
 *   (1) submissions: as.c.exam.submit of a 7-question GAD-7 sheet, scored and stored, one per code;
 *   (2) whole respondents: start with the code, session, form, one progress save, submit.
 * Codes are given beforehand with the batch action (not measured). `uptime` first and last: on a
 * shared machine compare ratios, not raw figures.
 */
import os from 'node:os';
import { testConfig } from '../apps/server/src/config.js';
import { startServer } from '../apps/server/src/server.js';
import { md5Upper } from '../apps/server/src/domains/auth/passwords.js';
import { scratchDatabase } from '../apps/server/src/db/admin.js';

const respondents = Number(process.env.BENCH_RESPONDENTS ?? 400);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 10);
const password = md5Upper(process.env.XINLI_DEMO_PASSWORD ?? 'demo123');
const sheet = Array.from({ length: 7 }, (_, i) => ({ no: i + 1, option: 1 + (i % 4) }));

console.log(`load average before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${respondents} respondents, ${concurrency} concurrent`);
const scratch = process.env.DATABASE_URL ? await scratchDatabase(process.env.DATABASE_URL, `xinli_bench_respond_${process.pid}`) : undefined;
const running = await startServer(testConfig({ demo: true, dataDir: '', databaseUrl: scratch?.url, logLevel: 'silent', codeFailuresPerAddress: 1_000_000 }), {
  checkOutput: false,
});
const url = await running.app.listen({ port: 0, host: '127.0.0.1' });

async function post(name: string, body: unknown, token?: string) {
  const res = await fetch(`${url}/api/${name}/1.0.0/action`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  const out = (await res.json()) as { errorCode: number; errorMsg: string; data: any };
  if (out.errorCode !== 0) throw new Error(`${name}: ${out.errorCode} ${out.errorMsg}`);
  return out.data;
}

/** Runs `n` tasks from `concurrency` workers; answers tasks per second. */
async function rate(n: number, task: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await task(next++);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

const staff = (await post('as.m.user.login', { username: 'school', pwd: password })).token as string;
const { plancode } = await post('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: 'bench', formcodes: ['GAD7'] }, staff);
async function codes(n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i += 200) {
    const people: string[] = [];
    for (let j = i; j < Math.min(n, i + 200); j++) people.push((await post('as.m.cuser.insertCUser', { appid: '000000002', realname: `压测${j}`, gender: '01' }, staff)).cusercode);
    const given = await post('as.m.user.insertCUserAssessCodes', { cusercodes: people, plancode }, staff);
    out.push(...given.codes.map((c: { assesscode: string }) => c.assesscode));
  }
  return out;
}

const line = (title: string, perSecond: number, base?: number) =>
  console.log(`${title.padEnd(52)} ${perSecond.toFixed(1).padStart(8)} /s${base ? `   x${(perSecond / base).toFixed(3)} of (base)` : ''}`);

const base = await rate(respondents, () => post('as.m.system.ping', {}, staff));
line('(base) signed-in no-op as.m.system.ping', base);

const forSubmit = await codes(respondents);
const tokens: string[] = [];
for (const c of forSubmit) tokens.push((await post('as.c.exam.start', { assesscode: c })).token);
line('(1) submissions (as.c.exam.submit, GAD-7 scored and stored)', await rate(respondents, (i) => post('as.c.exam.submit', { formcode: 'GAD7', answers: sheet }, tokens[i])), base);

const forPath = await codes(respondents);
line(
  '(2) respondents: start, session, form, save, submit',
  await rate(respondents, async (i) => {
    const { token } = await post('as.c.exam.start', { assesscode: forPath[i] });
    await post('as.c.exam.getSession', {}, token);
    await post('as.c.exam.getForm', { formcode: 'GAD7' }, token);
    await post('as.c.exam.saveProgress', { formcode: 'GAD7', answers: sheet.slice(0, 3) }, token);
    await post('as.c.exam.submit', { formcode: 'GAD7', answers: sheet }, token);
  }),
  base,
);

await running.stop();
await scratch?.drop();
console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
