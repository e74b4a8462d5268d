import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { ASSESS_CODE_ALPHABET, actionNames, catalogue, ErrorCode, type ActionDef } from '@xinli/contract';
import { engines, startTestServer, testDay, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { planAuthorize } from '../plans/tables.js';
import { assessCode, assessment, respondentSession } from './tables.js';
import { md5Upper } from '../auth/index.js';
import { consented, TEST_SIGNATURE } from '../../test/consent.js';

/** PHQ-9 and GAD-7 sheets: every question the same option (1 = "not at all" .. 4 = "nearly every day"). */
const sheet = (n: number, option: number) => Array.from({ length: n }, (_, i) => ({ no: i + 1, option }));

describe.each(engines())('assessment codes, the respondent channel and reports on %s', (engine) => {
  let s: TestServer;
  let school: string, hospital: string, provider: string;
  let plan: string;
  let ip = 0;
  /** Each respondent call from its own address, so the code-entry limit only bites where a test wants it. */
  const nextIp = () => ({ 'x-test-ip': `10.1.0.${++ip}` });
  const person = async (token: string, realname: string, appid = '000000002') => {
    const res = await s.call('as.m.cuser.insertCUser', { appid, realname, gender: '02' }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.cusercode as string;
  };
  const give = async (cusercode: string, plancode = plan, token = school) => {
    const res = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode }, token);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.assesscode as string;
  };
  const start = (assesscode: string, headers = nextIp()) => s.call('as.c.exam.start', { assesscode }, undefined, headers);

  // Tests move the clock (a break of hours, an authorisation expiring): staff sign in afresh each time.
  beforeEach(async () => {
    [school, hospital, provider] = await Promise.all(['school', 'hospital', 'provider'].map(async (u) => (await s.login(u)).token));
  });
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    const res = await s.call(
      'as.m.exam.plan.insertMUserExamPlan',
      { appid: '000000002', planname: '情绪筛查', formcodes: ['PHQ9', 'GAD7'] },
      school,
    );
    expect(res.errorCode, res.errorMsg).toBe(0);
    plan = res.data.plancode;
  });
  afterAll(() => s?.close());

  it('person → code → start → sign → submit → report seen by the institution, not by its sibling', async () => {
    const cusercode = await person(school, '李小满');
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school);
    expect(given.data).toMatchObject({ cusercode, url: `/a/${given.data.assesscode}` });
    const code: string = given.data.assesscode;
    expect(code).toHaveLength(10);
    expect([...code].every((c) => ASSESS_CODE_ALPHABET.includes(c))).toBe(true);

    // Case and spaces are forgiven when a person types the code.
    const started = await start(` ${code.slice(0, 5).toLowerCase()} ${code.slice(5)} `);
    expect(started.errorCode, started.errorMsg).toBe(0);
    const token: string = await consented(s, started.data.token);
    expect(started.data).toMatchObject({
      assesscode: code,
      insname: '滨江第一中学',
      planname: '情绪筛查',
      realname: '李小满',
      finished: false,
      consent: { signed: false },
    });
    expect(started.data.forms.map((f: { formcode: string; status: string }) => [f.formcode, f.status])).toEqual([
      ['PHQ9', 'todo'],
      ['GAD7', 'todo'],
    ]);

    expect((await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token)).errorCode).toBe(0);
    const form = await s.call('as.c.exam.getForm', { formcode: 'PHQ9' }, token);
    // Nine scored items and the unscored, optional difficulty question.
    expect(form.data.questions).toHaveLength(10);
    expect(form.data.questions[0].options[0]).toEqual({ text: expect.any(Object) });

    const phq = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(9, 3) }, token);
    expect(phq.errorCode, phq.errorMsg).toBe(0);
    const gad = await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: sheet(7, 2) }, token);
    expect(gad.errorCode, gad.errorMsg).toBe(0);
    const after = await s.call('as.c.exam.getSession', {}, token);
    expect(after.data.finished).toBe(true);
    expect(after.data.forms.every((f: { status: string }) => f.status === 'done')).toBe(true);

    // PHQ-9 all "more than half the days" (2 each): 18, moderately severe; item 9 answered > 0 is critical.
    const result = await s.call('as.c.exam.getResult', { reportid: phq.data.reportid }, token);
    expect(result.data).toMatchObject({ shown: false, indicators: [], mentalstate: null });
    expect(result.data.crisis.zh).toContain('12356');

    const list = await s.call('as.m.exam.getCUserReportPageList', { realname: '小满' }, school);
    expect(list.data.total).toBe(2);
    const row = list.data.rows.find((r: { formcode: string }) => r.formcode === 'PHQ9');
    expect(row).toMatchObject({
      reportid: phq.data.reportid,
      cusercode,
      realname: '李小满',
      musercode: 'I0001',
      planname: '情绪筛查',
      warning: 1,
      level: 3,
    });
    const detail = await s.call('as.m.exam.getCUserReport', { reportid: phq.data.reportid }, school);
    expect(detail.errorCode, detail.errorMsg).toBe(0);
    expect(detail.data.indicators[0]).toMatchObject({ score: 18, level: 3 });
    expect(detail.data.indicators[0].interpretation).toBeTruthy();
    expect(detail.data.answers).toHaveLength(10);
    expect(detail.data.answers[8]).toMatchObject({ no: 9, options: [3], score: 2 });
    expect(detail.data.version).toBe(1);
    // Filters: level, form, date range (the test clock's day), and another day's range.
    expect((await s.call('as.m.exam.getCUserReportPageList', { level: 3, formcode: 'PHQ9', cusercode }, school)).data.total).toBe(1);
    expect(
      (await s.call('as.m.exam.getCUserReportPageList', { cusercode, startdate: testDay(0), enddate: testDay(0) }, school)).data.total,
    ).toBe(2);
    expect((await s.call('as.m.exam.getCUserReportPageList', { cusercode, startdate: testDay(1) }, school)).data.total).toBe(0);
    // The provider over the school sees it; the sibling hospital does not.
    expect((await s.call('as.m.exam.getCUserReport', { reportid: phq.data.reportid }, provider)).errorCode).toBe(0);
    expect((await s.call('as.m.exam.getCUserReport', { reportid: phq.data.reportid }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.getCUserReportPageList', { cusercode }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.getCUserReportPageList', { realname: '小满' }, hospital)).data.total).toBe(0);
    expect((await s.call('as.m.cuser.getSignaturePicture', { cusercode }, hospital)).errorCode).toBe(ErrorCode.notFound);
    const signature = await s.call('as.m.cuser.getSignaturePicture', { cusercode }, school);
    expect(signature.data).toMatchObject({ signature: TEST_SIGNATURE, assesscode: code });
    expect((await s.call('as.m.cuser.getReportCount', { cusercodes: [cusercode] }, school)).data).toEqual([
      { cusercode, total: 2, warnings: 1, lastat: expect.any(String) },
    ]);
    const plans = await s.call('as.m.cuser.getCUserPlan', { cusercode }, school);
    expect(plans.data).toMatchObject([{ assesscode: code, status: 'finished', formcount: 2, donecount: 2 }]);

    // A finished code cannot be opened again, nor withdrawn.
    expect((await start(code)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.cuser.deleteCUserPlan', { assesscode: code }, school)).errorCode).toBe(ErrorCode.conflict);
  });

  it("staff whose only page is the students' /empower page can pick a plan and give it", async () => {
    const role = await s.call(
      'as.m.system.role.insertRole',
      { rolename: '学生测评员', rolekey: 'studentgiver', codes: ['0000000022'] },
      school,
    );
    expect(role.errorCode, role.errorMsg).toBe(0);
    const made = await s.call(
      'as.m.system.user.insertUser',
      { sysusername: 'giver1', pwd: md5Upper('Giver123'), realname: '发码老师', deptid: 'D0003', roleids: [role.data.roleid] },
      school,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    const giver = (await s.login('giver1', 'Giver123')).token;
    const plans = await s.call('as.m.exam.plan.getMultipleMUserExamPlanPage', { musercodes: ['I0001'], page: 1, pageSize: 20 }, giver);
    expect(plans.errorCode, plans.errorMsg).toBe(0);
    expect(plans.data.rows.map((r: { plancode: string }) => r.plancode)).toContain(plan);
    expect(await give(await person(giver, '王小禾'), plan, giver)).toHaveLength(10);
    // The plan library itself stays closed to this role.
    expect(
      (await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: 'x', formcodes: ['PHQ9'] }, giver)).errorCode,
    ).toBe(ErrorCode.permissionDenied);
  });

  it('resumes after a break: saved answers come back on a new start with the same code', async () => {
    const code = await give(await person(school, '王中断'));
    const first = await consented(s, (await start(code)).data.token);
    expect((await s.call('as.c.exam.saveProgress', { formcode: 'PHQ9', answers: sheet(4, 2) }, first)).data).toEqual({ savedcount: 4 });
    expect(
      (
        await s.call(
          'as.c.exam.saveProgress',
          {
            formcode: 'PHQ9',
            answers: [
              { no: 4, option: 1 },
              { no: 5, option: 1 },
            ],
          },
          first,
        )
      ).data,
    ).toEqual({ savedcount: 5 });

    // The phone was closed; the page kept its token (or the person types the code again).
    s.clock.advance(3 * 3600_000);
    const again = await s.call('as.c.exam.getSession', {}, first);
    expect(again.data.forms[0]).toMatchObject({ formcode: 'PHQ9', status: 'todo', savedcount: 5 });
    const second = await start(code);
    expect(second.data.forms[0].savedcount).toBe(5);
    const form = await s.call('as.c.exam.getForm', { formcode: 'PHQ9' }, second.data.token);
    expect(form.data.saved).toEqual([...sheet(3, 2), { no: 4, option: 1 }, { no: 5, option: 1 }]);
    const submitted = await s.call(
      'as.c.exam.submit',
      { formcode: 'PHQ9', answers: [...form.data.saved, ...sheet(9, 1).slice(5)] },
      second.data.token,
    );
    expect(submitted.errorCode, submitted.errorMsg).toBe(0);
    expect((await s.call('as.c.exam.getSession', {}, first)).data.forms[0]).toMatchObject({
      status: 'done',
      reportid: submitted.data.reportid,
    });
  });

  it('every refusal is clear and stores nothing', async () => {
    const code = await give(await person(school, '赵拒绝'));
    const token = await consented(s, (await start(code)).data.token);
    const db = s.database.db;
    const before = await fingerprint(db);
    const refusals: [string, unknown, string | undefined, number][] = [
      ['as.c.exam.start', { assesscode: 'ZZZZZZZZZZ' }, undefined, ErrorCode.notFound],
      ['as.c.exam.start', { assesscode: 'abc' }, undefined, ErrorCode.validation],
      ['as.c.exam.submit', { formcode: 'EPDS', answers: sheet(10, 1) }, token, ErrorCode.notFound],
      ['as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(8, 1) }, token, ErrorCode.validation],
      ['as.c.exam.submit', { formcode: 'PHQ9', answers: [...sheet(8, 1), { no: 9, option: 5 }] }, token, ErrorCode.validation],
      ['as.c.exam.submit', { formcode: 'PHQ9', answers: [...sheet(9, 1), { no: 11, option: 1 }] }, token, ErrorCode.validation],
      ['as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(9, 1) }, undefined, ErrorCode.identityInvalid],
      ['as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(9, 1) }, school, ErrorCode.identityInvalid],
      ['as.c.exam.saveProgress', { formcode: 'PHQ9', answers: [{ no: 2, option: 9 }] }, token, ErrorCode.validation],
      ['as.c.exam.saveProgress', { formcode: 'GDS15', answers: [{ no: 2, option: 1 }] }, token, ErrorCode.notFound],
      [
        'as.c.exam.sign',
        { signature: 'data:image/png;base64,' + Buffer.from('GIF89a not a png at all, really').toString('base64') },
        token,
        ErrorCode.validation,
      ],
      ['as.c.exam.sign', { signature: Buffer.alloc(300 * 1024, 1).toString('base64') }, token, ErrorCode.validation],
      ['as.c.exam.getResult', { reportid: 'ANOPE' }, token, ErrorCode.notFound],
      ['as.m.exam.getCUserReportPageList', {}, token, ErrorCode.identityInvalid],
      ['as.m.user.insertCUserAssessCode', { cusercode: 'CNOPE', plancode: plan }, school, ErrorCode.notFound],
    ];
    for (const [name, body, tok, want] of refusals) {
      const a = await s.call(name as never, body as never, tok, { ...nextIp(), 'accept-language': 'en-US' });
      expect(a.errorCode, `${name} ${JSON.stringify(body).slice(0, 80)}: ${a.errorMsg}`).toBe(want);
      expect(a.errorMsg).not.toMatch(/select|insert|undefined|\.ts:/i);
    }
    expect(changedTables(before, await fingerprint(db))).toEqual([]);

    // A second submission of a finished form, one after the other and two at once.
    expect((await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(9, 1) }, token)).errorCode).toBe(0);
    const mid = await fingerprint(db);
    expect((await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(9, 2) }, token)).errorCode).toBe(ErrorCode.conflict);
    const twice = await Promise.all([1, 2].map(() => s.call('as.c.exam.submit', { formcode: 'GAD7', answers: sheet(7, 1) }, token)));
    expect(twice.map((a) => a.errorCode).sort()).toEqual([0, ErrorCode.conflict]);
    expect(await db.select().from(assessment).where(eq(assessment.assesscode, code))).toHaveLength(2);
    // The report's indicator rows (reports domain) and its statistics are stored in the same transaction; the
    // person was already counted as assessed by the first form, so stats_people does not move.
    expect(changedTables(mid, await fingerprint(db)).sort()).toEqual([
      'assess_code',
      'assessment',
      'assessment_indicator',
      'stats_count',
      'stats_person',
      'stats_report',
    ]);
  });

  it('an authorised count is used one per code, with no race past it; expired and used-up authorisations refuse', async () => {
    // The provider's plan, authorised to the school for 5 assessments.
    const p = await s.call(
      'as.m.exam.plan.insertMUserExamPlan',
      { appid: '000000002', planname: '授权计划', formcodes: ['GAD7'] },
      provider,
    );
    const plancode: string = p.data.plancode;
    const auth = await s.call(
      'as.m.exam.plan.authorizePlan',
      { plancode, musercode: 'I0001', count: 5, startdate: testDay(-1), enddate: testDay(30) },
      provider,
    );
    expect(auth.errorCode, auth.errorMsg).toBe(0);
    const people = await Promise.all(Array.from({ length: 12 }, (_, i) => person(school, `并发${i}`)));
    const answers = await Promise.all(
      people.map((cusercode) => s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode }, school, { 'accept-language': 'en-US' })),
    );
    expect(answers.filter((a) => a.errorCode === 0)).toHaveLength(5);
    const refused = answers.filter((a) => a.errorCode !== 0);
    expect(refused).toHaveLength(7);
    for (const a of refused) expect(a).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: expect.stringContaining('used up') });
    const [row] = await s.database.db.select().from(planAuthorize).where(eq(planAuthorize.authid, auth.data.authid));
    expect(row!.usedcount).toBe(5);
    expect(await s.database.db.select().from(assessCode).where(eq(assessCode.plancode, plancode))).toHaveLength(5);

    // Withdrawing an unused code gives its count back; the batch form is all or nothing.
    const withdrawn = answers.find((a) => a.errorCode === 0)!.data.assesscode;
    expect((await s.call('as.m.cuser.deleteCUserPlan', { assesscode: withdrawn }, school)).errorCode).toBe(0);
    expect((await start(withdrawn)).errorCode).toBe(ErrorCode.notFound);
    const batch = await s.call('as.m.user.insertCUserAssessCodes', { cusercodes: people.slice(5, 7), plancode }, school);
    expect(batch.errorCode).toBe(ErrorCode.conflict);
    expect((await s.database.db.select().from(planAuthorize).where(eq(planAuthorize.authid, auth.data.authid)))[0]!.usedcount).toBe(4);
    const one = await s.call('as.m.user.insertCUserAssessCodes', { cusercodes: people.slice(5, 6), plancode }, school);
    expect(one.errorCode, one.errorMsg).toBe(0);
    expect(one.data.codes).toHaveLength(1);

    // Thirty-one days on, the authorisation has expired.
    s.clock.advance(31 * 86_400_000);
    const late = await s.call('as.m.user.insertCUserAssessCode', { cusercode: people[11]!, plancode }, (await s.login('school')).token, {
      'accept-language': 'en-US',
    });
    expect(late).toMatchObject({ errorCode: ErrorCode.conflict, errorMsg: expect.stringContaining('expired') });
    s.clock.advance(-31 * 86_400_000);
    school = (await s.login('school')).token;
    // A plan neither owned nor authorised: not found; a sibling's person: not found.
    expect((await s.call('as.m.user.insertCUserAssessCode', { cusercode: people[0]!, plancode: 'PL-W1' }, school)).errorCode).toBe(
      ErrorCode.notFound,
    );
    const theirs = await person(hospital, '医院的人', '000000001');
    expect((await s.call('as.m.user.insertCUserAssessCode', { cusercode: theirs, plancode: plan }, school)).errorCode).toBe(
      ErrorCode.notFound,
    );
  });

  it('code entry is rate-limited per address; valid entries do not count', async () => {
    const code = await give(await person(school, '钱限流'));
    const here = { 'x-test-ip': '10.9.9.9' };
    for (let i = 0; i < 3; i++) expect((await start(code, here)).errorCode).toBe(0);
    const limit = 10;
    for (let i = 0; i < limit; i++) expect((await start(`WRONGCODE${ASSESS_CODE_ALPHABET[i]}`, here)).errorCode).toBe(ErrorCode.notFound);
    const blocked = await start(code, here);
    expect(blocked.errorCode).toBe(ErrorCode.rateLimited);
    expect((await start(code, { 'x-test-ip': '10.9.9.10' })).errorCode).toBe(0);
    s.clock.advance(16 * 60_000 + 1);
    expect((await start(code, here)).errorCode).toBe(0);
  });

  it('through an institution’s QR link: choose a stage, register, sign, fill the archive, answer, see the result and the crisis text', async () => {
    const made = await s.call(
      'as.m.user.createMUserClient',
      {
        musercode: 'I0002',
        title: '仁和妇幼心理测评',
        consent: '本院知情同意书',
        appids: ['000000001'],
        showresult: 1,
        hotline: '0571-88886666',
      },
      provider,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    const entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
    const entry = await s.call('as.c.exam.getEntry', { entrytoken }, undefined, nextIp());
    expect(entry.data).toMatchObject({ insname: '仁和妇幼保健院', title: '仁和妇幼心理测评' });
    const stages = entry.data.apps[0].stages.map((x: { stagecode: string }) => x.stagecode);
    expect(stages).toContain('ST-M1');
    // A stage the entry does not offer, and an unknown link, are refused and register nobody.
    const before = await fingerprint(s.database.db);
    expect(
      (
        await s.call(
          'as.c.exam.enter',
          { entrytoken, appid: '000000001', stagecode: 'ST-S1', realname: '外人', gender: '02' },
          undefined,
          nextIp(),
        )
      ).errorCode,
    ).toBe(ErrorCode.notFound);
    expect(
      (
        await s.call(
          'as.c.exam.enter',
          { entrytoken: 'x'.repeat(43), appid: '000000001', stagecode: 'ST-M1', realname: '外人', gender: '02' },
          undefined,
          nextIp(),
        )
      ).errorCode,
    ).toBe(ErrorCode.notFound);
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);

    const entered = await s.call(
      'as.c.exam.enter',
      { entrytoken, appid: '000000001', stagecode: 'ST-M1', realname: '孕妈小周', gender: '02' },
      undefined,
      nextIp(),
    );
    expect(entered.errorCode, entered.errorMsg).toBe(0);
    const token: string = await consented(s, entered.data.token);
    expect(entered.data).toMatchObject({ realname: '孕妈小周', consent: { text: { zh: '本院知情同意书' }, signed: false } });
    expect(entered.data.forms.map((f: { formcode: string }) => f.formcode)).toEqual(['PHQ9', 'GAD7']);

    const archive = await s.call('as.c.exam.getArchiveForm', {}, token);
    expect(archive.errorCode, archive.errorMsg).toBe(0);
    expect(archive.data.formtype).toBe('02');
    {
      const value = (q: { type: number; inputtype?: number; range?: { min: number } }) =>
        q.type === 1
          ? 1
          : q.type === 2
            ? [1]
            : ((
                {
                  1: q.range?.min ?? 1,
                  2: q.range?.min ?? 1,
                  3: '2026-01-01',
                  4: '08:00',
                  5: '2026-01-01 08:00',
                  6: '08:00-09:00',
                  7: q.range?.min ?? 1,
                  8: '330106',
                } as Record<number, unknown>
              )[q.inputtype ?? 0] ?? '无');
      const answers = archive.data.questions.map((q: { no: number; type: number }) => ({ no: q.no, value: value(q) }));
      const saved = await s.call('as.c.exam.saveArchive', { answers }, token);
      expect(saved.errorCode, saved.errorMsg).toBe(0);
      expect((await s.call('as.c.exam.getSession', {}, token)).data.archive.done).toBe(true);
    }
    const phq = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: [...sheet(8, 1), { no: 9, option: 2 }] }, token);
    expect(phq.errorCode, phq.errorMsg).toBe(0);
    const result = await s.call('as.c.exam.getResult', { reportid: phq.data.reportid }, token);
    expect(result.data).toMatchObject({ shown: true, mentalstate: 1 });
    expect(result.data.indicators[0]).toMatchObject({ score: 1, level: 0, label: { zh: expect.any(String) } });
    expect(result.data.crisis.zh).toContain('0571-88886666');
    // The person is the hospital's now, registered through the QR code, with the report listed.
    const hospitalNow = (await s.login('hospital')).token;
    const list = await s.call('as.m.exam.getCUserReportPageList', { realname: '孕妈小周' }, hospitalNow);
    expect(list.data.rows).toMatchObject([{ reportid: phq.data.reportid, musercode: 'I0002', stagecode: 'ST-M1', plancode: '' }]);
    expect((await s.call('as.m.exam.getCUserReportPageList', { realname: '孕妈小周' }, school)).data.total).toBe(0);
  });

  it('the daily housekeeping removes the respondent sessions past their week (refused already), and keeps the live ones', async () => {
    const sessions = async (...codes: string[]) =>
      (await s.database.db.select().from(respondentSession).where(inArray(respondentSession.assesscode, codes)).orderBy(respondentSession.assesscode)).map(
        (r) => r.assesscode,
      );
    const [old, live] = [await give(await person(school, '钱旧会话')), await give(await person(school, '钱新会话'))];
    const oldToken = (await start(old)).data.token as string;
    s.clock.advance(6 * 86_400_000);
    const liveToken = (await start(live)).data.token as string;
    s.clock.advance(86_400_000 + 60_000); // the old session's week is over; the next day's run is due
    expect((await s.call('as.c.exam.getSession', {}, oldToken)).errorCode).toBe(ErrorCode.identityInvalid);
    expect(await sessions(old, live)).toEqual([old, live].sort());
    await s.jobs.runDue();
    expect(await sessions(old, live)).toEqual([live]);
    expect((await s.call('as.c.exam.getSession', {}, liveToken)).errorCode).toBe(0);
    s.clock.advance(-(7 * 86_400_000 + 60_000));
  });

  it('a respondent token is refused by every as.m.* action, a staff token by every respondent action', async () => {
    const code = await give(await person(school, '孙隔离'));
    const token = await consented(s, (await start(code)).data.token);
    const defs = catalogue as Record<string, ActionDef>;
    const staffActions = actionNames.filter((n) => n.startsWith('as.m.') && defs[n]!.access !== 'public');
    expect(staffActions.length).toBeGreaterThan(50);
    for (const name of staffActions) {
      const a = await s.call(name, {}, token);
      expect(a.errorCode, name).toBe(ErrorCode.identityInvalid);
    }
    const respondentActions = actionNames.filter((n) => defs[n]!.access === 'respondent');
    expect(respondentActions.every((n) => n.startsWith('as.c.'))).toBe(true);
    for (const name of respondentActions) {
      for (const staff of [school, provider]) expect((await s.call(name, {}, staff)).errorCode, name).toBe(ErrorCode.identityInvalid);
    }
    // One respondent cannot read another's report.
    const other = (await start(await give(await person(school, '周别人')))).data.token;
    const mine = await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: sheet(7, 1) }, token);
    expect((await s.call('as.c.exam.getResult', { reportid: mine.data.reportid }, other)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.c.exam.getResult', { reportid: mine.data.reportid }, token)).errorCode).toBe(0);
  });
});

describe.each(engines())('demo reports on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true });
  });
  afterAll(() => s?.close());

  it('the demo has months of reports for the demo persons, scored by the engine, with counts used', async () => {
    const db = s.database.db;
    const reports = await db
      .select({
        musercode: assessment.musercode,
        createdat: assessment.createdat,
        warning: assessment.warning,
        scores: assessment.scores,
        version: assessment.version,
      })
      .from(assessment)
      .where(eq(assessment.plancode, 'PL-M1'));
    expect(reports.length).toBeGreaterThan(50);
    const months = new Set(reports.map((r) => r.createdat.toISOString().slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(4);
    expect(reports.some((r) => r.warning === 1)).toBe(true);
    expect(reports.some((r) => r.warning === 0)).toBe(true);
    // The maternity plan is authorised to the hospital: each demo code used one of its count.
    const hospitalCodes = await db.select().from(assessCode).where(eq(assessCode.plancode, 'PL-M1'));
    const [auth] = await db.select().from(planAuthorize).where(eq(planAuthorize.authid, 'PA-PL-M1'));
    expect(auth!.usedcount).toBe(hospitalCodes.length);
    // Every population has reports the console lists.
    const provider = (await s.login('provider')).token;
    for (const appid of ['000000001', '000000002', '000000004']) {
      const page = await s.call('as.m.exam.getCUserReportPageList', { appid, pageSize: 1 }, provider);
      expect(page.data.total, appid).toBeGreaterThan(20);
    }
  });
});
