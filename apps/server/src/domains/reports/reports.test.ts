import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, testDay, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { auditLog } from '../audit/tables.js';
import { assessment } from '../assessments/tables.js';
import { assessmentIndicator } from './tables.js';
import { cuser } from '../persons/tables.js';
import { consented } from '../../test/consent.js';
import { insertTestForm } from '../scales/test-forms.js';

/** Sheets with every question the same option (1 = "not at all" .. 4 = "nearly every day"). */
const sheet = (n: number, option: number) => Array.from({ length: n }, (_, i) => ({ no: i + 1, option }));

/** The rows of the first sheet of a downloaded workbook, as plain values. */
async function sheetRows(payload: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe.each(engines())('reports on %s', (engine) => {
  let s: TestServer;
  let school: string, hospital: string, provider: string;
  let plan: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.2.0.${++ip}` });
  /** Person 甲 (name starting with "=": exports must escape it), two PHQ-9 results a day apart and one GAD-7. */
  let cusercode: string;
  let first: { phq: string; gad: string; token: string };
  let second: { phq: string; token: string };

  const call = async (name: string, body: Record<string, unknown>, token: string) => {
    const res = await s.call(name as never, body, token);
    expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
    return res.data;
  };
  const give = async (who: string) =>
    (await call('as.m.user.insertCUserAssessCode', { cusercode: who, plancode: plan }, school)).assesscode as string;
  const start = async (assesscode: string) => consented(s, (await s.call('as.c.exam.start', { assesscode }, undefined, nextIp())).data.token as string);
  const download = async (name: string, body: unknown, who: string | Record<string, string>) => {
    const res = await s.raw(name, JSON.stringify(body), typeof who === 'string' ? { token: who } : who);
    return res;
  };

  beforeEach(async () => {
    [school, hospital, provider] = await Promise.all(['school', 'hospital', 'provider'].map(async (u) => (await s.login(u)).token));
  });
  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true });
    [school, provider] = await Promise.all(['school', 'provider'].map(async (u) => (await s.login(u)).token));
    // The school shows results to respondents, so hiding a report has something to hide.
    const entry = { musercode: 'I0001', title: '滨江一中心理测评', appids: ['000000002'], showresult: 1, hotline: '0571-12345678' };
    if ((await s.call('as.m.user.createMUserClient', entry, provider)).errorCode !== 0)
      await call('as.m.user.updateMUserClient', entry, provider);
    plan = (
      await call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '报告测试', formcodes: ['PHQ9', 'GAD7'] }, school)
    ).plancode;
    cusercode = (await call('as.m.cuser.insertCUser', { appid: '000000002', realname: '甲同学', gender: '02' }, school)).cusercode;
    // The name rule refuses '=' in a name now; a name stored before it is still escaped in exports.
    await s.database.db.update(cuser).set({ realname: '=甲同学' }).where(eq(cuser.cusercode, cusercode));
    const token1 = await start(await give(cusercode));
    // PHQ-9 all 3 ("more than half the days", 2 each): 18, moderately severe (3); item 9 scores 2.
    const phq = (await call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(9, 3) }, token1)).reportid;
    // GAD-7 all 2 (1 each): 7, mild (1).
    const gad = (await call('as.c.exam.submit', { formcode: 'GAD7', answers: sheet(7, 2) }, token1)).reportid;
    first = { phq, gad, token: token1 };
    s.clock.advance(86_400_000);
    school = (await s.login('school')).token;
    const token2 = await start(await give(cusercode));
    second = { phq: (await call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(9, 1) }, token2)).reportid, token: token2 };
  });
  afterAll(() => s?.close());

  it('stores one indicator row per indicator with the report, the demo reports too', async () => {
    const db = s.database.db;
    const rows = await db.select().from(assessmentIndicator).where(eq(assessmentIndicator.assessid, first.phq));
    expect(rows).toEqual([
      { assessid: first.phq, formcode: 'PHQ9', code: 'TOTAL', score: 18, level: 3, colour: expect.any(String), mood: 'depressed' },
    ]);
    expect((await db.select().from(assessmentIndicator).where(eq(assessmentIndicator.assessid, first.gad)))[0]).toMatchObject({
      code: 'TOTAL',
      score: 7,
      level: 1,
      mood: 'anxious',
    });
    // Every demo report has its indicator rows (the demo goes through the same code).
    const [reports] = await db.select({ n: count() }).from(assessment);
    const [withRows] = await db
      .selectDistinct({ n: count() })
      .from(assessment)
      .where(inArray(assessment.assessid, db.selectDistinct({ id: assessmentIndicator.assessid }).from(assessmentIndicator)));
    expect(Number(reports!.n)).toBeGreaterThan(1000);
    expect(Number(withRows!.n)).toBe(Number(reports!.n));
  });

  it('lists under the shared filter: indicator levels, hidden, stage counts, latest time and filter choices', async () => {
    const list = await call('as.m.exam.getCUserReportPageList', { cusercode }, school);
    expect(list.total).toBe(3);
    expect(list.rows[0]).toMatchObject({ reportid: second.phq, hidden: 0 });
    const moderate = await call(
      'as.m.exam.getCUserReportPageList',
      { cusercode, quotas: [{ formcode: 'PHQ9', quotacode: 'TOTAL', levels: [3, 4] }] },
      school,
    );
    expect(moderate.rows.map((r: { reportid: string }) => r.reportid)).toEqual([first.phq]);
    expect(
      (
        await call(
          'as.m.exam.getCUserReportPageList',
          { cusercode, quotas: [{ formcode: 'PHQ9', quotacode: 'TOTAL', levels: [0] }] },
          school,
        )
      ).total,
    ).toBe(1);

    const choices = await call('as.m.exam.getQuotaFilterConditions', { plancode: plan }, school);
    expect(choices.map((f: { formcode: string }) => f.formcode).sort()).toEqual(['GAD7', 'PHQ9']);
    const phq = choices.find((f: { formcode: string }) => f.formcode === 'PHQ9');
    expect(phq).toMatchObject({ reports: 2, formname: expect.stringContaining('PHQ-9') });
    expect(phq.quotas[0].levels.map((l: { level: number; reports: number }) => [l.level, l.reports])).toEqual([
      [0, 1],
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 0],
    ]);

    const stages = await call('as.m.exam.getCUserStagesAssessCount', { plancode: plan }, school);
    expect(stages).toEqual([{ stagecode: expect.any(String), stagename: expect.any(String), persons: 1, reports: 3, warnings: 1 }]);
    const latest = await call('as.m.exam.getReportMaxTime', { cusercode }, school);
    expect(latest.maxtime).toBe(s.clock.now().toISOString());
    expect(await call('as.m.exam.getReportMaxTime', { cusercode, startdate: testDay(5) }, school)).toEqual({ maxtime: null });

    const items = await call('as.m.exam.getCUserExamDataPageList', { cusercode, formcode: 'PHQ9', pageSize: 1 }, school);
    expect(items.total).toBe(2);
    expect(items.rows[0].reportid).toBe(second.phq);
    expect(items.rows[0].items).toHaveLength(9);
    expect(items.rows[0].items[8]).toMatchObject({ no: 9, options: [1], score: 0 });
  });

  it('one report: comments kept as history with who and when, and the trend on the same form', async () => {
    await call('as.m.exam.updateReport', { reportid: first.phq, comment: '已约谈，建议复测' }, school);
    s.clock.advance(60_000);
    await call('as.m.exam.updateReport', { reportid: first.phq, comment: '复测后好转' }, provider);
    const detail = await call('as.m.exam.getCUserReport', { reportid: second.phq }, school);
    expect(detail.trend.map((p: { reportid: string; indicators: { score: number }[] }) => [p.reportid, p.indicators[0]!.score])).toEqual([
      [first.phq, 18],
      [second.phq, 0],
    ]);
    expect(detail.comments).toEqual([]);
    const commented = await call('as.m.exam.getCUserReport', { reportid: first.phq }, school);
    expect(commented.trend).toHaveLength(1);
    expect(commented.comments.map((c: { comment: string; userid: string; username: string }) => [c.comment, c.userid, c.username])).toEqual(
      [
        ['已约谈，建议复测', 'I0001', '滨江第一中学'],
        ['复测后好转', 'P0001', expect.any(String)],
      ],
    );
    const [audit] = await s.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'as.m.exam.updateReport'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit!.detail).toMatchObject({ reportid: first.phq });
    // A blank comment is refused and stores nothing.
    const before = await fingerprint(s.database.db);
    expect((await s.call('as.m.exam.updateReport', { reportid: first.phq, comment: '   ' }, school)).errorCode).toBe(ErrorCode.validation);
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);
  });

  it('a hidden report shows its respondent nothing but the crisis text; the filter and the person-wide switch', async () => {
    const shownBefore = await call('as.c.exam.getResult', { reportid: first.phq }, first.token);
    expect(shownBefore).toMatchObject({ shown: true, mentalstate: expect.any(Number) });
    expect(shownBefore.indicators.length).toBeGreaterThan(0);

    expect(await call('as.m.cuser.showOrHiddenReport', { reportid: first.phq, hidden: 1 }, school)).toEqual({ count: 1 });
    const hidden = await call('as.c.exam.getResult', { reportid: first.phq }, first.token);
    expect(hidden).toMatchObject({ shown: false, mentalstate: null, indicators: [] });
    expect(hidden.crisis.zh).toContain('0571-12345678');
    // The other report of the same code is still shown.
    expect((await call('as.c.exam.getResult', { reportid: first.gad }, first.token)).shown).toBe(true);
    expect(
      (await call('as.m.exam.getCUserReportPageList', { cusercode, hidden: 1 }, school)).rows.map((r: { reportid: string }) => r.reportid),
    ).toEqual([first.phq]);

    expect(await call('as.m.cuser.showOrHiddenReport', { cusercode, hidden: 1 }, school)).toEqual({ count: 3 });
    expect((await call('as.c.exam.getResult', { reportid: second.phq }, second.token)).shown).toBe(false);
    expect(await call('as.m.cuser.showOrHiddenReport', { cusercode, hidden: 0 }, provider)).toEqual({ count: 3 });
    expect((await call('as.c.exam.getResult', { reportid: first.phq }, first.token)).shown).toBe(true);
    const audits = await s.database.db.select().from(auditLog).where(eq(auditLog.action, 'as.m.cuser.showOrHiddenReport'));
    expect(audits.length).toBeGreaterThanOrEqual(3);

    // Both named: that one report, which must be the person's; neither named is refused.
    expect(await call('as.m.cuser.showOrHiddenReport', { reportid: first.phq, cusercode, hidden: 0 }, school)).toEqual({ count: 1 });
    const other = (await call('as.m.cuser.insertCUser', { appid: '000000002', realname: '乙同学', gender: '01' }, school)).cusercode;
    const before = await fingerprint(s.database.db);
    expect(
      (await s.call('as.m.cuser.showOrHiddenReport', { reportid: first.phq, cusercode: other, hidden: 1 }, school)).errorCode,
    ).toBe(ErrorCode.validation);
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);
    expect((await s.call('as.m.cuser.showOrHiddenReport', { hidden: 1 }, school)).errorCode).toBe(ErrorCode.validation);
  });

  it('resetting attempts discards progress and sessions of unfinished codes only', async () => {
    const other = (await call('as.m.cuser.insertCUser', { appid: '000000002', realname: '乙同学', gender: '01' }, school)).cusercode;
    const code = await give(other);
    const token = await start(code);
    await call('as.c.exam.saveProgress', { formcode: 'PHQ9', answers: sheet(4, 2) }, token);
    const plans: { assesscode: string; status: string }[] = await call('as.m.cuser.getCUserPlan', { cusercode }, school);
    const finished = plans.find((p) => p.status === 'finished')!.assesscode;

    expect((await s.call('as.m.exam.clearCUserAssessCount', { cusercode, assesscode: finished }, school)).errorCode).toBe(
      ErrorCode.conflict,
    );
    expect(await call('as.m.exam.clearCUserAssessCount', { cusercode: other }, school)).toEqual({ codes: 1, progress: 1 });
    // The old session has ended; the same code starts again, with nothing saved.
    expect((await s.call('as.c.exam.getSession', {}, token)).errorCode).toBe(ErrorCode.identityInvalid);
    expect((await call('as.m.cuser.getCUserPlan', { cusercode: other }, school))[0]).toMatchObject({ assesscode: code, status: 'issued' });
    const again = await start(code);
    expect((await call('as.c.exam.getForm', { formcode: 'PHQ9' }, again)).saved).toEqual([]);
    // 甲's second code has PHQ-9 submitted and GAD-7 left: it is reset, the finished one is not; the reports stay.
    expect(await call('as.m.exam.clearCUserAssessCount', { cusercode }, school)).toEqual({ codes: 1, progress: 0 });
    expect((await call('as.m.cuser.getCUserPlan', { cusercode }, school)).map((p: { status: string }) => p.status).sort()).toEqual([
      'finished',
      'issued',
    ]);
    expect((await call('as.m.exam.getCUserReportPageList', { cusercode }, school)).total).toBe(3);
    const [audit] = await s.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'as.m.exam.clearCUserAssessCount')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit!.detail).toMatchObject({ cusercode });
  });

  it('the PHQ-9 chart and the anxious/depressed list', async () => {
    const chart = await call('as.m.exam.getPHQ9ChartsData', { cusercode }, school);
    expect(
      chart.map((p: { reportid: string; score: number; level: number; item9: number }) => [p.reportid, p.score, p.level, p.item9]),
    ).toEqual([
      [first.phq, 18, 3, 2],
      [second.phq, 0, 0, 0],
    ]);
    const both = await call('as.m.exam.getAnxiousDepressedReportPageList', { cusercode }, school);
    expect(both.rows.map((r: { reportid: string }) => r.reportid)).toEqual([first.phq]);
    expect(both.rows[0].moods).toEqual([
      { kind: 'depressed', quotacode: 'TOTAL', name: expect.any(String), score: 18, level: 3, colour: expect.any(String) },
    ]);
    expect((await call('as.m.exam.getAnxiousDepressedReportPageList', { cusercode, kind: 'anxious' }, school)).total).toBe(0);
    expect(
      (await call('as.m.exam.getAnxiousDepressedReportPageList', { cusercode, kind: 'anxious', minlevel: 1 }, school)).rows[0].reportid,
    ).toBe(first.gad);
    expect((await call('as.m.exam.getAnxiousDepressedReportPageList', { cusercode, minlevel: 4 }, school)).total).toBe(0);
  });

  it('exports: item answers, one row per report with every indicator, counts per level; escaped, audited, empty with headers', async () => {
    const items = await download('as.m.exam.exportCUserExamData', { cusercode }, school);
    expect(items.statusCode).toBe(200);
    const itemRows = await sheetRows(items.rawPayload);
    // Header, then 9 + 7 + 9 answered items (question 10 of PHQ-9 was not answered).
    expect(itemRows).toHaveLength(1 + 9 + 7 + 9);
    expect(itemRows[0]![0]).toBe('报告编号');
    expect(itemRows[1]![1]).toBe("'=甲同学");
    expect(itemRows.filter((r) => r[0] === first.phq && r[10] === 9)[0]!.slice(12)).toEqual([expect.any(String), 2]);

    const detail = await sheetRows((await download('as.m.exam.exportCUserDetailData', { cusercode, formcode: 'PHQ9' }, school)).rawPayload);
    expect(detail).toHaveLength(3);
    expect(detail[0]!.slice(-2)).toEqual([expect.stringContaining('得分'), expect.stringContaining('等级')]);
    // Mental state, highest level and every indicator level in the console's words, not codes.
    expect(detail[0]!.slice(10, 12)).toEqual(['心理状态', '最高等级']);
    expect(detail.map((r) => [r[0], r[10], r[11], ...r.slice(-2)]).slice(1)).toEqual([
      [second.phq, '良好', '正常', 0, '正常'],
      [first.phq, '中度情绪问题', '中重度', 18, '中重度'],
    ]);
    const detailEn = await sheetRows(
      (await download('as.m.exam.exportCUserDetailData', { cusercode, formcode: 'PHQ9' }, { token: school, 'accept-language': 'en-US' }))
        .rawPayload,
    );
    expect(detailEn[0]!.slice(10, 12)).toEqual(['Mental state', 'Highest level']);
    expect(detailEn.map((r) => [r[10], r[11], r.at(-1)]).slice(1)).toEqual([
      ['Good', 'Normal', 'Normal'],
      ['Moderate emotional problem', 'Moderately severe', 'Moderately severe'],
    ]);

    const stats = await sheetRows((await download('as.m.exam.exportCUserStatData', { cusercode }, school)).rawPayload);
    expect(stats[0]).toEqual(['量表', '指标', '报告数', '正常', '轻度', '中度', '中重度', '重度', '无分段']);
    const statsEn = await sheetRows(
      (await download('as.m.exam.exportCUserStatData', { cusercode }, { token: school, 'accept-language': 'en-US' })).rawPayload,
    );
    expect(statsEn[0]!.slice(3)).toEqual(['Normal', 'Mild', 'Moderate', 'Moderately severe', 'Severe', 'No band']);
    expect(stats.slice(1).map((r) => r.slice(2))).toEqual(
      expect.arrayContaining([
        [2, 1, 0, 0, 1, 0, 0],
        [1, 0, 1, 0, 0, 0, 0],
      ]),
    );

    // Nothing under the filter: a file with its headers only.
    for (const name of ['as.m.exam.exportCUserExamData', 'as.m.exam.exportCUserDetailData', 'as.m.exam.exportCUserStatData']) {
      const empty = await download(name, { cusercode, startdate: testDay(30) }, school);
      expect(empty.statusCode, name).toBe(200);
      const rows = await sheetRows(empty.rawPayload);
      expect(rows, name).toHaveLength(1);
    }
    const audits = await s.database.db
      .select()
      .from(auditLog)
      .where(
        inArray(auditLog.action, ['as.m.exam.exportCUserExamData', 'as.m.exam.exportCUserDetailData', 'as.m.exam.exportCUserStatData']),
      );
    expect(audits.length).toBe(8);
    expect(audits[0]!.detail).toMatchObject({ filter: { cusercode } });
  });

  it('another institution’s reports, persons and filters are not found by every action', async () => {
    const nf = async (name: string, body: Record<string, unknown>) =>
      expect((await s.call(name as never, body, hospital)).errorCode, name).toBe(ErrorCode.notFound);
    const before = await fingerprint(s.database.db);
    await nf('as.m.exam.getCUserReport', { reportid: first.phq });
    await nf('as.m.exam.updateReport', { reportid: first.phq, comment: '越权' });
    await nf('as.m.cuser.showOrHiddenReport', { reportid: first.phq, hidden: 1 });
    await nf('as.m.cuser.showOrHiddenReport', { cusercode, hidden: 1 });
    await nf('as.m.exam.clearCUserAssessCount', { cusercode });
    await nf('as.m.exam.getPHQ9ChartsData', { cusercode });
    for (const name of [
      'as.m.exam.getCUserReportPageList',
      'as.m.exam.getCUserExamDataPageList',
      'as.m.exam.getAnxiousDepressedReportPageList',
      'as.m.exam.getCUserStagesAssessCount',
      'as.m.exam.getReportMaxTime',
      'as.m.exam.exportCUserExamData',
      'as.m.exam.exportCUserDetailData',
      'as.m.exam.exportCUserStatData',
    ]) {
      await nf(name, { cusercode });
      await nf(name, { musercode: 'I0001' });
    }
    await nf('as.m.exam.getQuotaFilterConditions', { plancode: plan });
    await nf('as.m.exam.getQuotaFilterConditions', { musercode: 'I0001' });
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);
    // The report list reads its page beside these checks (filterChecks): a refusal still wins, with no rows.
    await insertTestForm(s.database.db, 'SCHOOLONLY', 'I0001', ['000000002']);
    // Two refusals at once (another institution named, and a form it cannot read): the first answers,
    // and the other is not left as an unhandled rejection (vitest fails the run on one).
    for (const body of [
      { formcode: 'SCHOOLONLY' },
      { quotas: [{ formcode: 'SCHOOLONLY', quotacode: 'total', levels: [0] }] },
      { realname: '甲同学', cusercode },
      { musercode: 'I0001', formcode: 'SCHOOLONLY', cusercode },
    ]) {
      const refused = await s.call('as.m.exam.getCUserReportPageList', body, hospital);
      expect(refused.errorCode, JSON.stringify(body)).toBe(ErrorCode.notFound);
      expect(refused.data).toBeNull();
    }
    expect((await s.call('as.m.exam.getCUserReportPageList', { formcode: 'SCHOOLONLY' }, school)).errorCode).toBe(0);
    // Unfiltered, the hospital's lists and counts simply do not contain the school's reports.
    const own = await call('as.m.exam.getCUserReportPageList', { realname: '甲同学' }, hospital);
    expect(own.total).toBe(0);
    expect(await call('as.m.exam.getCUserStagesAssessCount', { realname: '甲同学' }, hospital)).toEqual([]);
    const stats = await sheetRows((await download('as.m.exam.exportCUserStatData', { realname: '甲同学' }, hospital)).rawPayload);
    expect(stats).toHaveLength(1);
  });
});
