import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { DEFAULT_WARNING_SETTINGS, ErrorCode, WARNING_SETTINGS_CODE } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { auditLog } from '../audit/tables.js';
import { warningSetting } from './tables.js';

/**
 * Issue 27 item 5: the counsellor (00046, the code that works cases) once set the escalation,
 * worsening and missed-assessment thresholds of its whole school to 0. What raises or escalates a
 * warning is its own code (WARNING_SETTINGS_CODE): institution admins and the accounts hold it, the
 * counsellor and doctor roles do not; every change is audited with the old and the new values.
 */
describe.each(engines())('warning settings on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  const off = { worsenpoints: 0, worsenlevels: 0, misseddays: 0, escalateminutes: 0 };
  const stored = async (musercode: string) => s.database.db.select().from(warningSetting).where(eq(warningSetting.musercode, musercode));

  it('refuses the counsellor (the probe) and the doctor, and changes nothing; both still read the settings', async () => {
    for (const username of ['teacher', 'doctor']) {
      const { token, musercode, permissions } = await s.login(username);
      expect(permissions.map((p) => p.component)).toContain('00046');
      expect(permissions.map((p) => p.component)).not.toContain(WARNING_SETTINGS_CODE);
      const res = await s.call('as.m.warning.updateWarningSettings', off, token);
      expect(res.errorCode, username).toBe(ErrorCode.permissionDenied);
      expect(await stored(musercode)).toEqual([]);
      expect((await s.call('as.m.warning.getWarningSettings', {}, token)).data).toEqual({ musercode, ...DEFAULT_WARNING_SETTINGS });
    }
  });

  it('the school’s admin role, the school and its provider hold the code and may change them', async () => {
    for (const username of ['schooladmin', 'school', 'provider']) {
      expect((await s.login(username)).permissions.map((p) => p.component), username).toContain(WARNING_SETTINGS_CODE);
    }
    const admin = (await s.login('schooladmin')).token;
    expect((await s.call('as.m.warning.updateWarningSettings', { ...DEFAULT_WARNING_SETTINGS, escalateminutes: 30 }, admin)).errorCode).toBe(0);
    const provider = (await s.login('provider')).token;
    expect((await s.call('as.m.warning.updateWarningSettings', { musercode: 'I0001', ...DEFAULT_WARNING_SETTINGS, misseddays: 7 }, provider)).errorCode).toBe(0);
    expect((await s.call('as.m.warning.getWarningSettings', {}, admin)).data).toEqual({ musercode: 'I0001', ...DEFAULT_WARNING_SETTINGS, misseddays: 7 });
  });

  it('audits every change with the old and the new values', async () => {
    const school = (await s.login('school')).token;
    const before = (await s.call('as.m.warning.getWarningSettings', {}, school)).data;
    const next = { worsenpoints: 5, worsenlevels: 2, misseddays: 21, escalateminutes: 45 };
    expect((await s.call('as.m.warning.updateWarningSettings', next, school)).errorCode).toBe(0);
    const [entry] = await s.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'as.m.warning.updateWarningSettings'), eq(auditLog.result, 'ok')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    const { musercode: _m, ...old } = before;
    expect(entry!.detail).toEqual({ target: 'I0001', old, new: next });
  });

  it('parallel changes each record the values they really replaced (one chain, no value replaced twice)', async () => {
    const hospital = (await s.login('hospital')).token; // I0002: still on the defaults
    const values = [11, 12, 13, 14, 15, 16];
    const answers = await Promise.all(values.map((escalateminutes) => s.call('as.m.warning.updateWarningSettings', { ...DEFAULT_WARNING_SETTINGS, escalateminutes }, hospital)));
    expect(answers.map((a) => a.errorCode)).toEqual(values.map(() => 0));
    const entries = (await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.warning.updateWarningSettings'))).filter(
      (e) => (e.detail as { target: string }).target === 'I0002',
    );
    const olds = entries.map((e) => (e.detail as { old: { escalateminutes: number } }).old.escalateminutes).sort((a, b) => a - b);
    const final = (await stored('I0002'))[0]!.escalateminutes;
    // Every value but the last written was replaced exactly once, and the defaults once.
    expect(olds).toEqual([DEFAULT_WARNING_SETTINGS.escalateminutes, ...values.filter((v) => v !== final)].sort((a, b) => a - b));
  });
});
