import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { testConfig } from './config.js';
import { startServer } from './server.js';
import { handlers } from './domains/index.js';
import { muser } from './domains/accounts/tables.js';
import { session } from './domains/auth/tables.js';
import { auditLog } from './domains/audit/tables.js';
import { md5Upper } from './domains/auth/passwords.js';
import { currentCode } from './domains/auth/second-factor.js';
import { createSuperAccount } from './domains/accounts/accounts.js';
import { engines, startTestServer, testClock } from './test/harness.js';
import { freePort } from './test/ports.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-srv-'));
  dirs.push(d);
  return path.join(d, 'data');
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const post = (base: string, name: string, body: unknown, token?: string) =>
  fetch(`${base}/api/${name}/1.0.0/action`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { token } : {}) }, body: JSON.stringify(body) }).then(
    async (r): Promise<Record<string, any>> => ({ status: r.status, ...((await r.json()) as object) }),
  );

/**
 * One account on a database started without the demo (seeding it costs most of a start on PGlite,
 * and the process test below covers a demo start and restart); answers its sign-in token.
 */
async function accountOn(running: Awaited<ReturnType<typeof startServer>>): Promise<string> {
  await createSuperAccount(running.database.db, 'disk', 'a-long-secret');
  const login = await running.app.inject({ method: 'POST', url: '/api/as.m.user.login/1.0.0/action', payload: { username: 'disk', pwd: md5Upper('a-long-secret') } });
  expect(login.json().errorCode).toBe(0);
  return login.json().data.token as string;
}

describe('the embedded database on disk', () => {
  it('keeps every account and session row across a restart on the same data directory', async () => {
    const config = testConfig({ dataDir: tempDir(), demo: false });
    const first = await startServer(config, { now: testClock().now });
    const token = await accountOn(first);
    const accounts = await first.database.db.select().from(muser);
    const sessions = await first.database.db.select().from(session);
    expect(accounts.map((a) => a.username)).toEqual(['disk']);
    expect(sessions).toHaveLength(1);
    await first.stop();

    const second = await startServer(config, { now: testClock().now });
    expect(await second.database.db.select().from(muser)).toEqual(accounts);
    expect(await second.database.db.select().from(session)).toEqual(sessions);
    const ping = await second.app.inject({ method: 'POST', url: '/api/as.m.system.ping/1.0.0/action', payload: {}, headers: { token } });
    expect(ping.json().errorCode).toBe(0);
    await second.stop();
  });

  it('lets in-flight requests finish before closing the database', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const running = await startServer(testConfig({ dataDir: tempDir(), demo: false }), {
      now: testClock().now,
      handlers: { ...handlers, 'as.m.system.ping': async () => (await gate, { time: 'late' }) },
    });
    const token = await accountOn(running);
    const address = await running.app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = post(address, 'as.m.system.ping', {}, token);
    await new Promise((r) => setTimeout(r, 100));
    const stopped = running.stop();
    setTimeout(release, 200);
    expect(await inFlight).toMatchObject({ status: 200, errorCode: 0, data: { time: 'late' } });
    await stopped;
  });
});

describe('the server process', () => {
  it('exits cleanly on SIGTERM and its data directory opens again', async () => {
    const dataDir = tempDir();
    const port = await freePort();
    const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, XINLI_DEMO: '1', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent' };
    const main = path.resolve(import.meta.dirname, 'main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    await new Promise<void>((resolve, reject) => {
      const t = setInterval(() => out.includes('Demo sign-ins') && (clearInterval(t), resolve()), 100);
      child.once('exit', (code) => reject(new Error(`exited early ${code}: ${out}`)));
    });
    expect(out).toContain('admin');
    const ok = await post(`http://127.0.0.1:${port}`, 'as.m.user.login', { username: 'admin', pwd: md5Upper('demo123') });
    expect(ok.errorCode).toBe(0);
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    // The data folder's key, as the child used (no key configured): its sealed values open.
    const again = await startServer(testConfig({ dataDir, demo: true, dataKeys: { previous: [] } }), { now: testClock().now });
    expect(again.seeded).toBe(false);
    await again.stop();
  }, 180_000); // a whole demo seed in a child process, beside the rest of the suite
});

describe('the create-admin command', () => {
  const cli = path.resolve(import.meta.dirname, 'cli/create-admin.ts');
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (b) => (out += b));
      child.stderr.on('data', (b) => (out += b));
      child.once('exit', (code) => resolve({ code, out }));
    });

  it('creates the first super account on a database without demo data, and refuses a weak or missing password', async () => {
    const dataDir = tempDir();
    expect((await run(['chief'], { DATA_DIR: dataDir, XINLI_ADMIN_PASSWORD: 'short' })).code).toBe(2);
    const made = await run(['chief'], { DATA_DIR: dataDir, XINLI_ADMIN_PASSWORD: 'a-long-secret' });
    expect(made.out).toContain('chief created');
    expect((await run(['chief'], { DATA_DIR: dataDir, XINLI_ADMIN_PASSWORD: 'a-long-secret' })).code).toBe(1);
    // The data folder's key, which the command made (no key configured).
    const running = await startServer(testConfig({ dataDir, demo: false, dataKeys: { previous: [] } }), { now: testClock().now });
    const ok = await running.app.inject({ method: 'POST', url: '/api/as.m.user.login/1.0.0/action', payload: { username: 'chief', pwd: md5Upper('a-long-secret') } });
    expect(ok.json().data.roles).toContain('admin');
    const demo = await running.app.inject({ method: 'POST', url: '/api/as.m.user.login/1.0.0/action', payload: { username: 'admin', pwd: md5Upper('demo123') } });
    expect(demo.json().errorCode).not.toBe(0);
    await running.stop();
  }, 90_000);
});

describe('the create-admin command in production', () => {
  it('enrols the super account’s second factor: QR code and URI in the terminal, the first code, ten recovery codes; sign-in then asks for a code', async () => {
    const dataDir = tempDir();
    const cli = path.resolve(import.meta.dirname, 'cli/create-admin.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'chief'], {
      env: { ...process.env, DATA_DIR: dataDir, XINLI_ADMIN_PASSWORD: 'a-long-secret', NODE_ENV: 'production' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let answered = false;
    child.stderr.on('data', (b) => (out += b));
    child.stdout.on('data', (b) => {
      out += b;
      const secret = /otpauth:\/\/totp\/\S*secret=([A-Z2-7]+)/.exec(out)?.[1];
      // The code an authenticator app would show now: the command checks it on the same clock.
      if (secret && !answered && out.includes('6-digit code')) {
        answered = true;
        child.stdin.write(`${currentCode(secret, new Date())}\n`); // wall-clock: the command, a child process, checks the code on the real clock
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, out).toBe(0);
    expect(out).toContain('▄'); // the QR code, drawn in the terminal
    expect(out).toContain('Second factor enrolled');
    expect(out.match(/^ {2}[A-Z0-9]{5}-[A-Z0-9]{5}$/gm)).toHaveLength(10);
    // The server reads the secret the command sealed: with no key configured, the data folder's key, as the command used.
    const running = await startServer(testConfig({ dataDir, demo: false, dataKeys: { previous: [] } }), { now: testClock().now });
    const first = await running.app.inject({ method: 'POST', url: '/api/as.m.user.login/1.0.0/action', payload: { username: 'chief', pwd: md5Upper('a-long-secret') } });
    expect(first.json().data).toMatchObject({ secondfactor: 'code' });
    expect(first.json().data.token).toBeUndefined();
    await running.stop();
  }, 90_000);
});

describe.each(engines())('logs and audit on %s', (engine) => {
  it('never logs passwords, tokens or request bodies', async () => {
    const stream = new PassThrough();
    let logs = '';
    stream.on('data', (b) => (logs += b));
    const s = await startTestServer(engine, { logStream: stream, config: { logLevel: 'trace' } });
    const u = await s.login('school');
    await s.call('as.m.system.ping', {}, u.token);
    await s.call('as.m.user.login', { username: 'school', pwd: md5Upper('wrong-secret') });
    await s.close();
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toContain('as.m.user.login');
    for (const secret of [md5Upper('demo123'), md5Upper('wrong-secret'), u.token]) expect(logs).not.toContain(secret);
  });

  it('writes one line per request at level "request", none at LOG_LEVEL=info', async () => {
    const lines = async (logLevel: string) => {
      const stream = new PassThrough();
      let logs = '';
      stream.on('data', (b) => (logs += b));
      const s = await startTestServer(engine, { logStream: stream, config: { logLevel } });
      await s.call('as.m.system.ping', {});
      s.app.log.info('an event');
      await s.close();
      return logs.trim().split('\n').map((l) => JSON.parse(l) as { level: number; msg: string; url?: string; status?: number; ms?: number });
    };
    const request = await lines('request');
    expect(request.filter((l) => l.msg === 'request')).toEqual([expect.objectContaining({ level: 25, url: '/api/as.m.system.ping/1.0.0/action', status: 200, ms: expect.any(Number) })]);
    expect(request.some((l) => l.msg === 'an event')).toBe(true);
    const info = await lines('info');
    expect(info.map((l) => l.msg)).toEqual(['an event']);
  });

  it('refuses to update or delete audit rows', async () => {
    const s = await startTestServer(engine);
    await s.login('school');
    const [before] = await s.database.db.select({ n: count() }).from(auditLog);
    expect(before.n).toBeGreaterThan(0);
    await expect(s.database.db.update(auditLog).set({ result: 'ok' })).rejects.toThrow();
    await expect(s.database.db.delete(auditLog).where(eq(auditLog.action, 'as.m.user.login'))).rejects.toThrow();
    await expect(s.database.db.execute(sql`TRUNCATE audit_log`)).rejects.toThrow();
    expect(await s.database.db.select({ n: count() }).from(auditLog)).toEqual([before]);
    await s.close();
  });
});
