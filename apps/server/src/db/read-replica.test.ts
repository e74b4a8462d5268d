import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { loadConfig, testConfig } from '../config.js';
import { openDatabase, type Database } from './database.js';
import { admin, withDatabase } from './admin.js';
import { engines, startTestServer, type TestServer } from '../test/harness.js';

/**
 * DATABASE_READ_URL (issue 33 §4): lists and statistics read the replica, everything else the
 * primary. The "replica" here is a copy of the primary (CREATE DATABASE … TEMPLATE) whose rows are
 * then marked ("R:" before names, +1000 on the statistics aggregates), so an answer shows which
 * database it was read from. A real streaming replica: scripts/replica-bench.sh.
 */
const url = process.env.TEST_DATABASE_URL;

/** Rows of a statement sent straight to one database. */
async function query<T>(database: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: withDatabase(url!, database) });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('DATABASE_READ_URL in the configuration', () => {
  it('needs DATABASE_URL, and is nothing when unset', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/xinli' })).toThrow(/DATABASE_READ_URL is set without DATABASE_URL/);
    expect(loadConfig({ DATABASE_URL: 'postgres://primary/xinli' }).databaseReadUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: 'postgres://primary/xinli', DATABASE_READ_URL: 'postgres://replica/xinli' }).databaseReadUrl).toBe('postgres://replica/xinli');
  });
});

describe.each(engines('both'))('without DATABASE_READ_URL (%s)', (engine) => {
  it('opens one pool: reads and writes share it, no write sets the read-after-write cookie, /readyz has no replica', async () => {
    const s = await startTestServer(engine);
    try {
      expect(s.database.readDb).toBe(s.database.db);
      const { token } = await s.login('schooladmin');
      const wrote = await s.raw('as.m.system.dept.insertDept', JSON.stringify({ deptname: '单池' }), { token });
      expect(wrote.json().errorCode).toBe(0);
      expect(wrote.headers['set-cookie']).toBeUndefined();
      expect(Object.keys((await s.app.inject({ url: '/readyz' })).json().checks)).not.toContain('replica');
    } finally {
      await s.close();
    }
  });
});

describe.runIf(!!url)('with DATABASE_READ_URL (a second PostgreSQL database)', () => {
  const tag = `xinli_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
  const primary = `${tag}_p`;
  const replica = `${tag}_r`;
  let s: TestServer;
  let school: string;
  let teacher: string;
  const primaryCookie = { cookie: 'xinli_wrote=1' };

  beforeAll(async () => {
    // The primary, seeded with the demo and its reports; then closed, so it can be the replica's template.
    await admin(url!, `CREATE DATABASE ${primary} TEMPLATE ${inject('pgTemplate')}`);
    const seeding = await startTestServer('postgres', { database: await openDatabase({ url: withDatabase(url!, primary), migrate: false }), demoReports: true });
    await seeding.close();
    await admin(url!, `CREATE DATABASE ${replica} TEMPLATE ${primary}`);
    await query(replica, `update form set formname = 'R:' || formname; update cuser set realname = 'R:' || realname; update stats_count set n = n + 1000`);
    const database = await openDatabase({ url: withDatabase(url!, primary), readUrl: withDatabase(url!, replica), migrate: false });
    s = await startTestServer('postgres', { database, seed: false });
    [school, teacher] = await Promise.all([s.login('schooladmin', undefined, '10.9.0.1'), s.login('teacher', undefined, '10.9.0.2')]).then((r) => r.map((u) => u.token));
  });
  afterAll(async () => {
    await s?.close();
    await admin(url!, `DROP DATABASE IF EXISTS ${replica} WITH (FORCE)`);
    await admin(url!, `DROP DATABASE IF EXISTS ${primary} WITH (FORCE)`);
  });

  const names = (rows: { formname?: string; realname?: string }[], key: 'formname' | 'realname') => rows.map((r) => r[key] ?? '');

  it('reads the scale list, the masked person list, the report list and the statistics from the replica', async () => {
    const forms = await s.call('as.m.assess.forms.getFormPageList', { page: 1, pageSize: 10 }, school);
    expect(forms.errorCode).toBe(0);
    expect(names(forms.data.rows, 'formname').every((n) => n.startsWith('R:'))).toBe(true);

    const masked = await s.call('as.m.cuser.getCUserPageList', { page: 1, pageSize: 10 }, teacher);
    expect(masked.data.rows.length).toBeGreaterThan(0);
    expect(names(masked.data.rows, 'realname').every((n) => n.startsWith('R:'))).toBe(true);

    const reports = await s.call('as.m.exam.getCUserReportPageList', { page: 1, pageSize: 10 }, school);
    expect(reports.data.rows.length).toBeGreaterThan(0);
    expect(names(reports.data.rows, 'realname').every((n) => n.startsWith('R:'))).toBe(true);

    const fromReplica = (await s.call('as.m.assess.getAssessCount', {}, school)).data.count;
    const fromPrimary = (await s.call('as.m.assess.getAssessCount', {}, school, primaryCookie)).data.count;
    expect(fromPrimary).toBeGreaterThan(0);
    expect(fromReplica).toBeGreaterThanOrEqual(fromPrimary + 1000);
  });

  it('writes, and their audit rows, go to the primary; the write sets the cookie that sends this session’s next reads there', async () => {
    const wrote = await s.raw('as.m.system.dept.insertDept', JSON.stringify({ deptname: '只写主库' }), { token: school });
    expect(wrote.json().errorCode).toBe(0);
    const deptid = wrote.json().data.deptid as string;
    expect(await query(primary, `select deptid from dept where deptid = '${deptid}'`)).toHaveLength(1);
    expect(await query(replica, `select deptid from dept where deptid = '${deptid}'`)).toHaveLength(0);
    expect(await query(primary, `select 1 from audit_log where action = 'as.m.system.dept.insertDept'`)).not.toHaveLength(0);

    const cookie = String(wrote.headers['set-cookie']);
    expect(cookie).toMatch(/^xinli_wrote=1; Max-Age=10; Path=\/api; HttpOnly; SameSite=Strict$/);
    const after = await s.call('as.m.assess.forms.getFormPageList', { page: 1, pageSize: 10 }, school, { cookie: cookie.split(';')[0]! });
    expect(names(after.data.rows, 'formname').some((n) => n.startsWith('R:'))).toBe(false);
    // A refused write changes nothing and sets no cookie.
    const refused = await s.raw('as.m.system.dept.insertDept', JSON.stringify({ deptname: '' }), { token: school });
    expect(refused.json().errorCode).not.toBe(0);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('an audited full read (the unmasked person list, one person) reads the primary, and its audit row is written there', async () => {
    const before = (await query<{ n: number }>(primary, `select count(*)::int as n from audit_log where action = 'as.m.cuser.getCUserPageList'`))[0]!.n;
    const full = await s.call('as.m.cuser.getCUserPageList', { page: 1, pageSize: 10 }, school);
    expect(names(full.data.rows, 'realname').some((n) => n.startsWith('R:'))).toBe(false);
    expect((await query<{ n: number }>(primary, `select count(*)::int as n from audit_log where action = 'as.m.cuser.getCUserPageList'`))[0]!.n).toBe(before + 1);

    const one = await s.call('as.m.assess.getCUser', { cusercode: full.data.rows[0].cusercode }, school);
    expect(one.data.realname.startsWith('R:')).toBe(false);
    expect(await query(replica, `select 1 from audit_log where action = 'as.m.assess.getCUser'`)).toHaveLength(0);
  });

  it('PostgreSQL refuses a write sent through the read pool', async () => {
    const write = s.database.readDb.execute(sql`update form set formname = formname`);
    await expect(write).rejects.toMatchObject({ cause: expect.objectContaining({ code: '25006' }) });
  });

  it('the read pool stays read-only when the read URL carries settings of its own (options=-c …)', async () => {
    // pg takes the URL's `options` over a separate one: the pool's read-only setting must join them.
    const own = new URL(withDatabase(url!, replica));
    own.searchParams.set('options', '-c statement_timeout=5000');
    const database = await openDatabase({ url: withDatabase(url!, primary), readUrl: own.toString(), migrate: false });
    try {
      const timeout = (await database.readDb.execute(sql`select current_setting('statement_timeout') as t`)) as unknown as { rows: { t: string }[] };
      expect(timeout.rows).toEqual([{ t: '5s' }]);
      const write = database.readDb.execute(sql`update form set formname = formname`);
      await expect(write).rejects.toMatchObject({ cause: expect.objectContaining({ code: '25006' }) });
    } finally {
      await database.close();
    }
  });

  it('/readyz reports the replica, and fails while it does not answer', async () => {
    const ready = await s.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.replica).toBe('ok');

    const gone: Database = await openDatabase({ url: withDatabase(url!, primary), readUrl: withDatabase(url!, `${tag}_none`), migrate: false });
    const app = await s.appOnTestClock({ database: gone, config: testConfig() });
    try {
      const down = await app.inject({ url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ failing: ['replica'], checks: { database: 'ok', replica: 'failing' } });
    } finally {
      await app.close();
      await gone.close();
    }
  });
});
