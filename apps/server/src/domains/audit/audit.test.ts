import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { loadConfig } from '../../config.js';
import { engines, startTestServer, TEST_EPOCH, testDay, type TestServer } from '../../test/harness.js';
import { statementsSent } from '../../test/statements.js';
import type { AuditEntry } from '../../http/context.js';
import { writeAudit } from './audit.js';
import { verifyChain } from './chain.js';
import { purgeAudit } from './retention.js';
import { auditChain, auditLog } from './tables.js';

const DAY = 86_400_000;
/** The database's message of a refused statement (Drizzle wraps it as the cause). */
async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (e) {
    const err = e as Error & { cause?: Error };
    return err.cause?.message ?? err.message;
  }
  return 'not refused';
}
/** The inserts into the log among statements sent. */
const auditInserts = (sent: string[]) => sent.filter((q) => q.startsWith('insert into "audit_log"')).length;

const entry = (at: Date, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at,
  musercode: 'I0001',
  userid: null,
  actor: null,
  action: 'as.m.system.ping',
  result: 'ok',
  ip: '127.0.0.1',
  requestid: 'test',
  ...extra,
});

describe.each(engines())('audit log on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  let admin: string;
  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true });
    await s.call('as.m.user.login', { username: 'school', pwd: 'A'.repeat(32) }, undefined, { 'x-test-ip': '10.9.8.7' });
    school = (await s.login('school', undefined, '10.9.8.7')).token;
    provider = (await s.login('provider')).token;
    admin = (await s.login('admin')).token;
    await s.login('hospital');
    await s.login('gzschool');
  });
  afterAll(() => s?.close());

  const page = async (token: string, filters: Record<string, unknown> = {}) => {
    const res = await s.call('as.m.audit.getAuditPage', { page: 1, pageSize: 200, ...filters }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data as { total: number; rows: { auditid: string; musercode: string; userid: string; action: string; result: string; ip: string; seq: number; objects: string; at: string }[] };
  };

  it('shows an institution its own entries, a provider its institutions’, the super account all', async () => {
    const own = await page(school);
    expect(own.total).toBeGreaterThan(0);
    expect(new Set(own.rows.map((r) => r.musercode))).toEqual(new Set(['I0001']));
    const theirs = new Set((await page(provider)).rows.map((r) => r.musercode));
    expect(theirs.has('I0001') && theirs.has('I0002') && theirs.has('P0001')).toBe(true);
    expect(theirs.has('I0101') || [...theirs].some((m) => !['P0001', 'I0001', 'I0002', 'I0003', 'I0004'].includes(m) && m.startsWith('I01'))).toBe(false);
    const all = new Set((await page(admin)).rows.map((r) => r.musercode));
    expect(all.size).toBeGreaterThan(theirs.size);
    // A sibling institution named in the filter is not found, as everywhere.
    expect((await s.call('as.m.audit.getAuditPage', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    // Newest first, by place in the chain.
    const seqs = own.rows.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  });

  it('filters by time, account, action, outcome, object and address', async () => {
    const failed = await page(school, { action: 'as.m.user.login', result: 'fail' });
    expect(failed.total).toBe(1);
    expect(failed.rows[0]).toMatchObject({ musercode: 'I0001', result: 'fail', ip: '10.9.8.7' });
    expect((await page(school, { ip: '10.9.' })).rows.every((r) => r.ip.startsWith('10.9.'))).toBe(true);
    expect((await page(school, { ip: '10.9.' })).total).toBeGreaterThanOrEqual(2);
    expect((await page(school, { ip: '%' })).total).toBe(0);
    expect((await page(school, { account: 'school' })).total).toBeGreaterThanOrEqual(2);
    // A staff user by sign-in name: only that user's entries (the demo's follow-ups are the teacher's).
    const teacher = await page(school, { account: 'teacher' });
    expect(teacher.total).toBeGreaterThan(0);
    expect(new Set(teacher.rows.map((r) => r.userid)).size).toBe(1);
    expect(teacher.rows[0]!.userid).not.toBe('');
    expect((await page(school, { account: 'nobody-such' })).total).toBe(0);
    // Days are China calendar days: today's and earlier entries split the whole list between them.
    const midnight = Date.parse(`${testDay(0)}T00:00:00+08:00`);
    const today = await page(school, { datefrom: testDay(0), dateto: testDay(0) });
    const before = await page(school, { dateto: testDay(-1) });
    expect(today.total).toBeGreaterThan(0);
    expect(today.rows.every((r) => Date.parse(r.at) >= midnight && Date.parse(r.at) < midnight + DAY)).toBe(true);
    expect(before.rows.every((r) => Date.parse(r.at) < midnight)).toBe(true);
    expect(today.total + before.total).toBe((await page(school)).total);
    expect((await page(school, { datefrom: testDay(1) })).total).toBe(0);
    const reversed = await s.call('as.m.audit.getAuditPage', { datefrom: testDay(1), dateto: testDay(0) }, school, { 'accept-language': 'en-US' });
    expect(reversed).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: 'The start date cannot be after the end date' });
    // An object id anywhere in an entry's detail.
    await s.call('as.m.user.loginAs', { musercode: 'I0002' }, provider);
    const byObject = await page(provider, { object: 'I0002', action: 'as.m.user.loginAs' });
    expect(byObject.total).toBe(1);
    expect((await s.call('as.m.audit.getAuditPage', { result: 'bogus' }, provider)).errorCode).toBe(ErrorCode.validation);
  });

  it('opens one entry in scope; another institution’s entry is not found', async () => {
    const [own] = (await page(school, { action: 'as.m.user.login', result: 'fail' })).rows;
    const res = await s.call('as.m.audit.getAuditEntry', { auditid: own!.auditid }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    expect(res.data).toMatchObject({ auditid: own!.auditid, hash: own!.auditid, detail: { username: 'school' }, result: 'fail' });
    expect(res.data.prevhash).toMatch(/^([0-9a-f]{64})?$/);
    const [hospital] = (await page(admin, { musercode: 'I0002' })).rows;
    expect((await s.call('as.m.audit.getAuditEntry', { auditid: hospital!.auditid }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('exports the filtered entries, and the export is itself audited', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/as.m.audit.exportAudit/1.0.0/action',
      payload: JSON.stringify({ action: 'as.m.user.login' }),
      headers: { 'content-type': 'application/json', token: school },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const exported = await page(school, { action: 'as.m.audit.exportAudit' });
    expect(exported.rows).toMatchObject([{ musercode: 'I0001', result: 'ok' }]);
  });

  it('keeps the chain whole under parallel inserts', async () => {
    const before = await verifyChain(s.database.db);
    expect(before).toMatchObject({ whole: true, broken: null });
    await Promise.all(Array.from({ length: 40 }, (_, i) => writeAudit(s.database.db, entry(new Date(TEST_EPOCH), { requestid: `parallel-${i}` }))));
    // Through the API as well: parallel sign-ins each write their entries.
    await Promise.all(['school', 'hospital', 'provider', 'school', 'hospital'].map((u) => s.login(u)));
    const after = await verifyChain(s.database.db);
    expect(after).toMatchObject({ whole: true, broken: null });
    expect(after.checked).toBeGreaterThanOrEqual(before.checked + 45);
    const seqs = (await s.database.db.select({ seq: auditLog.seq }).from(auditLog).orderBy(asc(auditLog.seq))).map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const verified = await s.call('as.m.audit.verifyAuditChain', {}, school);
    expect(verified.data).toMatchObject({ whole: true, broken: null });
  });

  it('fails only the bad entry of entries that arrive together', async () => {
    const db = s.database.db;
    const sent = Array.from({ length: 30 }, (_, i) => (i === 17 ? entry(new Date(TEST_EPOCH), { requestid: 'batch-bad', action: null as unknown as string }) : entry(new Date(TEST_EPOCH), { requestid: `batch-${i}` })));
    const outcomes = await Promise.allSettled(sent.map((e) => writeAudit(db, e)));
    expect(outcomes.map((o) => o.status)).toEqual(sent.map((_, i) => (i === 17 ? 'rejected' : 'fulfilled')));
    const rows = await db.select({ requestid: auditLog.requestid, seq: auditLog.seq }).from(auditLog).where(sql`${auditLog.requestid} like 'batch-%'`).orderBy(asc(auditLog.seq));
    expect(rows).toHaveLength(29);
    expect(new Set(rows.map((r) => r.requestid))).toEqual(new Set(sent.filter((_, i) => i !== 17).map((e) => e.requestid)));
    // Alone, an entry goes at once: one insert of its own.
    const alone = await statementsSent(db, () => writeAudit(db, entry(new Date(TEST_EPOCH), { requestid: 'batch-alone' })));
    expect(auditInserts(alone)).toBe(1);
    expect(await verifyChain(db)).toMatchObject({ whole: true, broken: null });
  });

  it('groups the entries of a quiet moment into one insert, keeping the order they came in', async () => {
    const db = s.database.db;
    // Hold the first insert until all have been sent, as a busy database would.
    const first = writeAudit(db, entry(new Date(TEST_EPOCH), { requestid: 'order-0' }));
    const sent = await statementsSent(db, async () => {
      const rest = Array.from({ length: 9 }, (_, i) => writeAudit(db, entry(new Date(TEST_EPOCH), { requestid: `order-${i + 1}` })));
      await Promise.all([first, ...rest]);
    });
    expect(auditInserts(sent)).toBe(1);
    const rows = await db.select({ requestid: auditLog.requestid }).from(auditLog).where(sql`${auditLog.requestid} like 'order-%'`).orderBy(asc(auditLog.seq));
    expect(rows.map((r) => r.requestid)).toEqual(Array.from({ length: 10 }, (_, i) => `order-${i}`));
  });

  it('refuses UPDATE, TRUNCATE, a DELETE outside the retention job and a DELETE of a row younger than 180 days', async () => {
    const db = s.database.db;
    await writeAudit(db, entry(new Date('2999-01-01T00:00:00Z'), { requestid: 'young' }));
    expect(await refusal(db.update(auditLog).set({ result: 'fail' }).where(eq(auditLog.requestid, 'young')))).toMatch(/append-only/);
    expect(await refusal(db.delete(auditLog).where(eq(auditLog.requestid, 'young')))).toMatch(/only by the retention job/);
    expect(await refusal(db.execute(sql`TRUNCATE audit_log`))).toMatch(/append-only/);
    const purge = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('xinli.audit_purge', 'on', true)`);
      await tx.delete(auditLog).where(eq(auditLog.requestid, 'young'));
    });
    expect(await refusal(purge)).toMatch(/at least 180 days/);
    expect(await refusal(db.update(auditChain).set({ headhash: 'x' }))).toMatch(/audit_log triggers only/);
    expect(await db.select({ r: auditLog.result }).from(auditLog).where(eq(auditLog.requestid, 'young'))).toEqual([{ r: 'ok' }]);
  });

  it('writes one entry for each sensitive read and never a credential, token or full ID number', async () => {
    const persons = await s.call('as.m.cuser.getCUserPageList', { page: 1, pageSize: 5 }, school);
    const { cusercode } = persons.data.rows[0];
    const full = await s.call('as.m.assess.getCUser', { cusercode }, school);
    expect(full.errorCode, full.errorMsg).toBe(0);
    const count = async (action: string) => (await page(school, { action, object: cusercode })).total;
    expect(await count('as.m.assess.getCUser')).toBe(1);
    await s.call('as.m.cuser.getCUserArchive', { cusercode }, school);
    expect(await count('as.m.cuser.getCUserArchive')).toBe(1);
    await s.app.inject({
      method: 'POST',
      url: '/api/as.m.cuser.exportCuserList/1.0.0/action',
      payload: '{}',
      headers: { 'content-type': 'application/json', token: school },
    });
    expect((await page(school, { action: 'as.m.cuser.exportCuserList' })).total).toBe(1);
    // Opening a report.
    const reports = await s.call('as.m.exam.getCUserReportPageList', { appid: '000000002', page: 1, pageSize: 1 }, school);
    expect(reports.errorCode, reports.errorMsg).toBe(0);
    const { reportid } = reports.data.rows[0];
    expect((await s.call('as.m.exam.getCUserReport', { reportid }, school)).errorCode).toBe(0);
    expect((await page(school, { action: 'as.m.exam.getCUserReport', object: reportid })).total).toBe(1);
    // A login-as, under the provider that opened it and the institution it acts for.
    expect((await s.call('as.m.user.loginAs', { musercode: 'I0001' }, provider)).errorCode).toBe(0);
    expect((await page(provider, { action: 'as.m.user.loginAs', object: 'I0001' })).total).toBe(1);
    // A 403 is recorded as denied, with who, where and when.
    const teacher = (await s.login('teacher')).token;
    expect((await s.call('as.m.audit.getAuditPage', {}, teacher)).errorCode).toBe(ErrorCode.permissionDenied);
    const [denied] = (await page(school, { action: 'as.m.audit.getAuditPage', result: 'denied' })).rows;
    expect(denied).toMatchObject({ musercode: 'I0001', result: 'denied' });

    const secrets = [full.data.idcard, full.data.phonenumber, school, provider, admin, teacher, 'demo123'].filter((v: string) => v && v.length >= 6);
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    const texts = (await s.database.db.execute(sql`select (to_jsonb(a) - 'hash' - 'prevhash')::text as t from audit_log a`)) as unknown as { rows: { t: string }[] };
    for (const secret of secrets) expect(texts.rows.filter((r) => r.t.includes(secret))).toEqual([]);
  });

  it('reports the first broken link after a row is changed behind the trigger', async () => {
    const db = s.database.db;
    const [victim] = await db.select().from(auditLog).where(eq(auditLog.requestid, 'parallel-7'));
    await db.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER audit_log_guard`);
    await db.update(auditLog).set({ result: 'fail' }).where(eq(auditLog.id, victim!.id));
    await db.execute(sql`ALTER TABLE audit_log ENABLE TRIGGER audit_log_guard`);
    const check = await verifyChain(db);
    expect(check).toMatchObject({ whole: false, broken: { seq: victim!.seq, at: victim!.at.toISOString(), reason: 'hash' } });
    const res = await s.call('as.m.audit.verifyAuditChain', {}, school);
    expect(res.data).toMatchObject({ whole: false, broken: { seq: victim!.seq, reason: 'hash' } });
  });
});

describe.each(engines())('audit retention on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, { seed: false, config: { auditRetentionDays: 180 } });
  });
  afterAll(() => s?.close());

  it('refuses a retention under 180 days', async () => {
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '179' })).toThrow(/180/);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: 'soon' })).toThrow(/180/);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '365' }).auditRetentionDays).toBe(365);
    expect(loadConfig({}).auditRetentionDays).toBeNull();
    await expect(purgeAudit(s.database.db, s.clock.now(), 90)).rejects.toThrow(/180/);
  });

  it('removes only entries older than the retention, never younger than 180 days, and the rest still verifies', async () => {
    const db = s.database.db;
    const now = TEST_EPOCH;
    for (const days of [400, 300, 181]) await writeAudit(db, entry(new Date(now - days * DAY), { requestid: `old-${days}` }));
    for (const days of [179, 100, 1]) await writeAudit(db, entry(new Date(now - days * DAY), { requestid: `young-${days}` }));
    const [third] = await db.select().from(auditLog).where(eq(auditLog.requestid, 'old-181'));

    // The job, queued at start because AUDIT_RETENTION_DAYS is set, runs on the test clock.
    expect(await s.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const left = (await db.select({ r: auditLog.requestid }).from(auditLog).orderBy(asc(auditLog.seq))).map((r) => r.r);
    expect(left).toEqual(['young-179', 'young-100', 'young-1']);
    expect(await verifyChain(db)).toMatchObject({ whole: true, checked: 3, anchorseq: third!.seq });

    // The next day's job (next midnight UTC, 16 hours on) removes nothing more: the oldest left is under 180 days.
    s.clock.advance(16 * 3_600_000);
    expect(await s.jobs.runDue()).toBeGreaterThanOrEqual(1);
    expect(await db.select({ r: auditLog.requestid }).from(auditLog)).toHaveLength(3);
    expect((await verifyChain(db)).whole).toBe(true);
  });
});
