import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import { consented, TEST_SIGNATURE } from '../../test/consent.js';
import { engines, startTestServer, testDay, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { classTask, gad7, ok } from '../tasks/test-task.js';
import { assessCode, assessment } from './tables.js';

const HOUR = 3_600_000;

/**
 * Issue 27 item 6: every respondent step checks the window of what its code belongs to (a task's
 * start and end, a plan authorisation's dates), not only the task's sign-in.
 */
describe.each(engines())('the window of a code at every respondent step on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let ip = 0;
  const headers = (lang?: string) => ({ 'x-test-ip': `10.27.6.${++ip}`, ...(lang ? { 'accept-language': lang } : {}) });
  const start = (assesscode: string, lang?: string) => s.call('as.c.exam.start', { assesscode }, undefined, headers(lang));
  /** Every step a respondent token can take, with a body that would succeed inside the window. */
  const steps = (token: string, lang?: string) =>
    Promise.all([
      s.call('as.c.exam.getSession', {}, token, headers(lang)),
      s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token, headers(lang)),
      s.call('as.c.exam.getArchiveForm', {}, token, headers(lang)),
      s.call('as.c.exam.saveArchive', { answers: [] }, token, headers(lang)),
      s.call('as.c.exam.getForm', { formcode: 'GAD7' }, token, headers(lang)),
      s.call('as.c.exam.saveProgress', { formcode: 'GAD7', answers: [{ no: 1, option: 2 }] }, token, headers(lang)),
      s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7(4) }, token, headers(lang)),
    ]);
  const reports = async (assesscode: string) =>
    (await s.database.db.select().from(assessment).where(eq(assessment.assesscode, assesscode))).length;

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
  });
  afterAll(() => s?.close());

  it('the probe’s case: after a task ended, its personal code neither opens nor answers, and nothing counts in the task', async () => {
    const now = s.clock.now().getTime();
    const t = await classTask(
      s,
      school,
      { '1班': [['2027001', '林小雨', '02']] },
      { startat: new Date(now - HOUR), endat: new Date(now + 2 * HOUR) },
    );
    const code = t.codes['1班']!['2027001']!;
    // Opened while the task ran (the student started, then came back after the end).
    const opened = await ok(s.call('as.c.exam.start', { assesscode: code }, undefined, headers()));
    await consented(s, opened.token, headers());
    s.clock.advance(3 * HOUR);
    try {
      const before = await fingerprint(s.database.db);
      const late = await start(code);
      expect(late.errorCode).toBe(ErrorCode.validation);
      expect(late.errorMsg).toMatch(/^测评任务「测评任务\d+」已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 结束/);
      expect(late.data).toBeNull();
      expect((await start(code, 'en-US')).errorMsg).toMatch(/^The task “测评任务\d+” ended at \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC\+8\)/);
      for (const r of await steps(opened.token)) {
        expect(r.errorCode, r.errorMsg).toBe(ErrorCode.validation);
        expect(r.errorMsg).toMatch(/已于 .* 结束/);
      }
      expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);
      expect(await reports(code)).toBe(0);
    } finally {
      s.clock.advance(-3 * HOUR);
    }
    // Inside the window the same token still works: the refusal was the window, not the token.
    expect(await ok(s.call('as.c.exam.submit', { formcode: 'GAD7', answers: gad7() }, opened.token, headers()))).toHaveProperty('reportid');
  });

  it('before a task starts, its personal code says when it starts and opens nothing', async () => {
    const now = s.clock.now().getTime();
    const t = await classTask(
      s,
      school,
      { '2班': [['2027002', '陈浩然', '01']] },
      { startat: new Date(now + 2 * HOUR), endat: new Date(now + 5 * HOUR) },
    );
    const code = t.codes['2班']!['2027002']!;
    const before = await fingerprint(s.database.db);
    const early = await start(code);
    expect(early.errorCode).toBe(ErrorCode.validation);
    expect(early.errorMsg).toMatch(/尚未开始，开始时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);
    const [row] = await s.database.db.select().from(assessCode).where(eq(assessCode.assesscode, code));
    expect(row!.status).toBe('issued');
  });

  it('after the plan authorisation a code used ended, the code neither opens nor answers', async () => {
    const provider = (await s.login('provider')).token;
    const { plancode } = await ok(
      s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '授权窗口计划', formcodes: ['GAD7'] }, provider),
    );
    await ok(
      s.call(
        'as.m.exam.plan.authorizePlan',
        { plancode, musercode: 'I0001', count: 5, startdate: testDay(-1), enddate: testDay(1) },
        provider,
      ),
    );
    const { cusercode } = await ok(s.call('as.m.cuser.insertCUser', { appid: '000000002', realname: '王子涵', gender: '02' }, school));
    const { assesscode } = await ok(s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode }, school));
    const opened = await ok(s.call('as.c.exam.start', { assesscode }, undefined, headers()));
    s.clock.advance(3 * 86_400_000);
    try {
      const before = await fingerprint(s.database.db);
      const late = await start(assesscode);
      expect(late.errorCode).toBe(ErrorCode.validation);
      expect(late.errorMsg).toBe(`计划「授权窗口计划」的授权已于 ${testDay(1)} 结束，请联系机构`);
      expect((await start(assesscode, 'en-US')).errorMsg).toBe(
        `The authorisation of the plan “授权窗口计划” ended on ${testDay(1)}; please contact the institution`,
      );
      for (const r of await steps(opened.token)) expect(r.errorCode, r.errorMsg).toBe(ErrorCode.validation);
      expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);
      expect(await reports(assesscode)).toBe(0);
    } finally {
      s.clock.advance(-3 * 86_400_000);
    }
  });
});
