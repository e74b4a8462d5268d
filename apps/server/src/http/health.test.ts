import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { testConfig } from '../config.js';
import { md5Upper } from '../domains/auth/passwords.js';
import { engines, freshDatabase, startTestServer, type TestServer } from '../test/harness.js';

const TOKEN = 'scrape-token-0123456789abcdef';

/** The value of one series in a Prometheus text answer (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe.each(engines('both'))('health, readiness and metrics (%s)', (engine) => {
  let s: TestServer;
  const scrape = async () => {
    const res = await s.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { config: { metricsToken: TOKEN, authCacheMs: 5000 } });
  });
  afterAll(() => s.close());

  it('answers /healthz and /readyz without a sign-in, carrying no data', async () => {
    const health = await s.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await s.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json()).toEqual({
      status: 'ready',
      failing: [],
      checks: { database: 'ok', migrations: 'ok', jobs: 'ok', changeFeed: 'ok' },
    });
  });

  it('refuses /metrics without the token (401) and with a wrong one, and is off (404) without METRICS_TOKEN', async () => {
    expect((await s.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = await s.app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-token-0123456789abcdeX' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('Bearer');
    expect(wrong.body).not.toContain('xinli_');
    const off = await s.appOnTestClock({ config: testConfig({ metricsToken: undefined }) });
    try {
      const res = await off.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('xinli_');
    } finally {
      await off.close();
    }
  });

  it('counts requests by action and outcome, failed sign-ins, lockouts and warnings raised', async () => {
    const before = await scrape();
    const school = (await s.login('school')).token;
    const persons = await s.call('as.m.cuser.getCUserPageList', { pageSize: 1 }, school);
    expect(persons.errorCode, persons.errorMsg).toBe(0);
    const cusercode = persons.data.rows[0].cusercode as string;
    const flagged = await s.call('as.m.warning.flagPerson', { cusercode, level: 'attention', note: '班主任反映情绪低落' }, school);
    expect(flagged.errorCode, flagged.errorMsg).toBe(0);
    // Five wrong passwords lock the username (LOCKOUT_FAILURES): four failures, then the lock.
    for (let i = 0; i < 5; i++) {
      const res = await s.call('as.m.user.login', { username: 'teacher', pwd: md5Upper('wrong password') }, undefined, { 'x-test-ip': '10.77.0.1' });
      expect(res.errorCode).not.toBe(0);
    }
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);

    expect(moved('xinli_requests_total', { action: 'as.m.user.login', outcome: 'ok' })).toBe(1);
    expect(moved('xinli_requests_total', { action: 'as.m.user.login', outcome: 'wrongCredentials' })).toBe(4);
    expect(moved('xinli_requests_total', { action: 'as.m.user.login', outcome: 'locked' })).toBe(1);
    expect(moved('xinli_requests_total', { action: 'as.m.warning.flagPerson', outcome: 'ok' })).toBe(1);
    expect(moved('xinli_request_duration_seconds_count', { action: 'as.m.user.login' })).toBe(6);
    expect(moved('xinli_sign_in_failures_total', { step: 'password' })).toBe(5);
    expect(moved('xinli_sign_in_lockouts_total')).toBe(1);
    expect(moved('xinli_warnings_raised_total', { level: 'attention', kind: 'manual' })).toBe(1);
    // Labels are catalogue names and route patterns: no id, token or raw URL is ever a label.
    expect(after).not.toContain(cusercode);
    expect(after).not.toContain(school);
    expect(after).toContain('xinli_job_queue_depth');
    expect(after).toContain('xinli_event_streams_open');
    if (engine === 'postgres') expect(sample(after, 'xinli_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
  });

  it('counts open event streams and failed job attempts', async () => {
    const school = (await s.login('school')).token;
    const server = await s.appOnTestClock();
    try {
      const address = await server.listen({ port: 0, host: '127.0.0.1' });
      const stream = await fetch(`${address}/api/events`, { headers: { token: school } });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      await reader.read();
      const open = sample(await scrape(), 'xinli_event_streams_open');
      expect(open).toBe(1);
      await reader.cancel();
      await expect.poll(async () => sample(await scrape(), 'xinli_event_streams_open')).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('answers 503 naming the job runner once it is stopped', async () => {
    const other = await s.appOnTestClock();
    try {
      expect((await other.inject({ url: '/readyz' })).statusCode).toBe(200);
      await other.jobs.stop();
      const res = await other.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'unavailable', failing: ['jobs'] });
      // The process is alive all the same.
      expect((await other.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('answers 503 naming a polling job runner that stopped, ready while it polls', async () => {
    const polling = await s.appOnTestClock({ config: testConfig({ jobPollMs: 3_600_000 }) });
    try {
      expect((await polling.inject({ url: '/readyz' })).statusCode).toBe(200);
      await polling.jobs.stop();
      expect((await polling.inject({ url: '/readyz' })).json().failing).toEqual(['jobs']);
    } finally {
      await polling.close();
    }
  });

  it('answers 503 naming the migrations when the newest one is not applied', async () => {
    const database = await freshDatabase(engine);
    const app = await s.appOnTestClock({ database });
    try {
      await database.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().failing).toEqual(['migrations']);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('answers 503 naming the database (and so its migrations) when it does not answer', async () => {
    const database = await freshDatabase(engine);
    const app = await s.appOnTestClock({ database, config: testConfig({ authCacheMs: 0 }) });
    await app.ready();
    const close = database.close;
    await close();
    database.close = async () => {};
    try {
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().failing).toEqual(expect.arrayContaining(['database', 'migrations']));
      expect(res.json().checks.jobs).toBe('ok');
    } finally {
      await app.close().catch(() => {});
    }
  });

  if (engine === 'postgres') {
    it('answers 503 naming the change feed whose connection was cut, and ready again once it reconnects', async () => {
      const url = (s.database as unknown as { url: string }).url;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'xinli-change-feed' and datname = current_database()`);
        await expect.poll(async () => (await s.app.inject({ url: '/readyz' })).json().failing, { interval: 20 }).toEqual(['changeFeed']);
        expect((await s.app.inject({ url: '/readyz' })).statusCode).toBe(503);
        // The listener reconnects after a second.
        await expect.poll(async () => (await s.app.inject({ url: '/readyz' })).statusCode, { timeout: 10_000 }).toBe(200);
      } finally {
        await admin.end();
      }
    });
  }
});
