/**
 * Several server processes on one PostgreSQL (DESIGN §4, README "Configuration": SERVER_PROCESSES).
 * Real processes, as `npm run serve` starts them: a revocation made through one process is refused at
 * once by every other (whatever a process keeps in memory), and `npm run serve`'s primary starts one
 * worker per SERVER_PROCESSES and drains them all on SIGTERM. PostgreSQL only: PGlite is one process's
 * database, and embedded mode runs a single process.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import type { Database } from './db/database.js';
import { md5Upper } from './domains/auth/passwords.js';
import { syncReferenceData } from './seed/reference.js';
import { seedDemo } from './seed/demo.js';
import { DEMO_PASSWORD, freshDatabase } from './test/harness.js';
import { freePort } from './test/ports.js';
import { testConfig } from './config.js';
import { readyEncryption } from './encryption.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const main = path.resolve(import.meta.dirname, 'main.ts');

interface Proc {
  url: string;
  child: ChildProcess;
  out: () => string;
}

/** `node --import tsx main.ts` on its own port; resolves once it answers. */
async function startProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, PORT: String(port), DATABASE_URL: databaseUrl, XINLI_DEMO: '0', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', SERVER_PROCESSES: '1', DATA_KEY: testConfig().dataKeys.current!, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  await new Promise<void>((resolve, reject) => {
    const t = setInterval(() => out.includes('Xinli console:') && (clearInterval(t), resolve()), 50);
    child.once('exit', (code) => (clearInterval(t), reject(new Error(`exited early ${code}: ${out}`))));
  });
  return { url: `http://127.0.0.1:${port}`, child, out: () => out };
}

async function call(p: Proc, name: string, body: unknown, token?: string) {
  const res = await fetch(`${p.url}/api/${name}/1.0.0/action`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { errorCode: number; errorMsg: string; data: any };
}

async function signIn(p: Proc, username: string, password = DEMO_PASSWORD): Promise<string> {
  const r = await call(p, 'as.m.user.login', { username, pwd: md5Upper(password) });
  expect(r.errorCode, r.errorMsg).toBe(0);
  return r.data.token;
}

function stopProcess(p: Proc): Promise<number | null> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null) return resolve(p.child.exitCode);
    // 'close', not 'exit': the output still in the pipe (the workers' last lines) is read by then.
    p.child.once('close', (code) => resolve(code));
    p.child.kill('SIGTERM');
  });
}

describe.skipIf(!pgUrl)('several server processes on PostgreSQL', () => {
  let database: Database & { url?: string };
  let url: string;
  let a: Proc;
  let b: Proc;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    url = database.url!;
    await syncReferenceData(database.db);
    // The seed seals phone numbers with the test's data key; the processes below read them with it.
    await readyEncryption(database.db, testConfig(), false);
    await seedDemo(database.db, DEMO_PASSWORD, new Date(), { reports: false }); // wall-clock: the server processes below run on the real clock
    [a, b] = await Promise.all([startProcess(url), startProcess(url)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map(stopProcess));
    await database?.close();
  });

  /** The token works on both processes (twice each, so whatever either keeps of it is warm). */
  async function warm(token: string, name = 'as.m.system.ping', body: unknown = {}) {
    for (const p of [a, b, a, b]) expect((await call(p, name, body, token)).errorCode).toBe(0);
  }

  it('a sign-out through one process is refused at once by the other', async () => {
    const token = await signIn(a, 'school');
    await warm(token);
    expect((await call(a, 'as.m.user.logout', {}, token)).errorCode).toBe(0);
    expect((await call(b, 'as.m.system.ping', {}, token)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await call(a, 'as.m.system.ping', {}, token)).errorCode).toBe(ErrorCode.identityInvalid);
  });

  it('a password change through one process ends the account’s sessions on the other at once', async () => {
    const other = await signIn(a, 'hospital');
    const token = await signIn(b, 'hospital');
    await warm(other);
    const me = (await call(b, 'as.m.system.ping', {}, token)).errorCode;
    expect(me).toBe(0);
    const login = await call(a, 'as.m.user.login', { username: 'hospital', pwd: md5Upper(DEMO_PASSWORD) });
    const changed = await call(a, 'as.m.user.updateMUser', { musercode: login.data.musercode, oldpwd: md5Upper(DEMO_PASSWORD), pwd: md5Upper('Another-secret-1') }, login.data.token);
    expect(changed.errorCode, changed.errorMsg).toBe(0);
    for (const p of [b, a]) expect((await call(p, 'as.m.system.ping', {}, other)).errorCode).toBe(ErrorCode.identityInvalid);
    for (const p of [a, b]) expect((await call(p, 'as.m.system.ping', {}, token)).errorCode).toBe(ErrorCode.identityInvalid);
  });

  it('disabling a staff user through one process refuses its token on the other at once', async () => {
    const teacher = await signIn(b, 'teacher');
    await warm(teacher);
    const school = await signIn(a, 'school');
    const users = await call(a, 'as.m.system.user.selectUserList', { page: 1, pageSize: 50 }, school);
    const userid = users.data.rows.find((u: { sysusername: string }) => u.sysusername === 'teacher').userid;
    expect((await call(a, 'as.m.system.user.enableUser', { userid, enabled: 0 }, school)).errorCode).toBe(0);
    expect((await call(b, 'as.m.system.ping', {}, teacher)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await call(b, 'as.m.system.user.enableUser', { userid, enabled: 1 }, school)).errorCode).toBe(0);
  });

  it('a role losing a code through one process refuses that code on the other at once', async () => {
    const teacher = await signIn(b, 'teacher');
    const forms = ['as.m.exam.getExamForms', { appid: '' }] as const;
    // The counsellor role holds 00018, which opens getExamForms: whatever the input makes of it, not a refusal.
    for (const p of [a, b, a, b]) expect((await call(p, ...forms, teacher)).errorCode).not.toBe(ErrorCode.permissionDenied);
    const school = await signIn(a, 'school');
    const roles = await call(a, 'as.m.system.role.selectRoleList', {}, school);
    const role = (roles.data.rows ?? roles.data).find((r: { rolekey: string }) => r.rolekey === 'counsellor');
    const menus = await call(a, 'as.m.system.role.selectRoleMenuTreeselect', { roleid: role.roleid }, school);
    const codes: string[] = (menus.data.checkedKeys ?? menus.data.codes ?? []).filter((c: string) => c !== '00018');
    const changed = await call(a, 'as.m.system.role.updateRole', { roleid: role.roleid, codes }, school);
    expect(changed.errorCode, changed.errorMsg).toBe(0);
    expect((await call(b, ...forms, teacher)).errorCode).toBe(ErrorCode.permissionDenied);
    expect((await call(a, ...forms, teacher)).errorCode).toBe(ErrorCode.permissionDenied);
  });
});

describe.skipIf(!pgUrl)('npm run serve with SERVER_PROCESSES=2', () => {
  it('starts two worker processes that answer on one port, and drains them all on SIGTERM', async () => {
    const database = await freshDatabase('postgres');
    try {
      // The primary migrates (nothing to do here), syncs and seeds once before forking.
      const p = await startProcess(database.url!, { SERVER_PROCESSES: '2', XINLI_DEMO: '1', LOG_LEVEL: 'info' });
      expect(p.out()).toContain('2 processes');
      // Both workers listen (each logs it with its pid) before the signal: the primary announces the
      // first, and a worker still loading its modules has no signal handler yet, so it would die
      // without a line (a CI run under load failed so: two children, one of them not yet listening).
      const listening = () => [...new Set([...p.out().matchAll(/"pid":(\d+)[^\n]*"msg":"listening"/g)].map((m) => m[1]!))];
      for (let i = 0; i < 600 && listening().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      const pids = listening();
      expect(pids).toHaveLength(2);
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(p.child.pid)], { encoding: 'utf8' }).split('\n').map((l) => l.trim());
      for (const pid of pids) expect(children).toContain(pid);
      const token = await signIn(p, 'school');
      // New connections each (no keep-alive): the primary hands them to its workers in turn.
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${p.url}/api/as.m.system.ping/1.0.0/action`, { method: 'POST', headers: { 'content-type': 'application/json', token, connection: 'close' }, body: '{}' }).then((r) => r.json() as Promise<{ errorCode: number }>),
        ),
      );
      expect(answers.every((r) => r.errorCode === 0)).toBe(true);
      expect(await stopProcess(p)).toBe(0);
      expect(p.out()).toContain('SIGTERM: draining 2 server processes');
      expect(p.out().match(/finishing in-flight requests/g)).toHaveLength(2);
      for (const pid of pids) expect(() => process.kill(Number(pid), 0)).toThrow();
    } finally {
      await database.close();
    }
  }, 120_000);
});
