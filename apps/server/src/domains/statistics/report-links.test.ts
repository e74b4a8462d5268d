import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type ActionName, type ReportFilter, type StatsFilter } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';

/**
 * A chart bar and the report list it opens (issue 15): for each bar of each chart, the report
 * list's total under the filter the chart sets (the statistics filter, `counted` 1 and the bar's
 * own field) equals the statistics action's count for that bar, on the demo fixture.
 */

type Bar = { count: number; abnormal: number };

describe.each(engines())('chart bars and the report list on %s', (engine) => {
  let s: TestServer;
  const tokens: Record<string, string> = {};
  const call = async (user: string, name: ActionName, body: object) => {
    const res = await s.call(name, body, tokens[user]);
    expect(res.errorCode, `${user} ${name} ${res.errorMsg}`).toBe(0);
    return res.data as any;
  };
  /** The report list's total under the statistics filter, counted reports only, and the bar's fields. */
  const listTotal = async (user: string, f: StatsFilter, bar: Partial<ReportFilter>) =>
    (await call(user, 'as.m.exam.getCUserReportPageList', { ...f, counted: 1, ...bar, pageSize: 1 })).total as number;
  /** A bar's reports and its abnormal part both equal the list's totals. */
  const same = async (user: string, f: StatsFilter, bar: Partial<ReportFilter>, want: Bar) => {
    const label = `${user} ${JSON.stringify({ ...f, ...bar })}`;
    expect(await listTotal(user, f, bar), label).toBe(want.count);
    expect(await listTotal(user, f, { ...bar, abnormal: 1 }), `${label} abnormal`).toBe(want.abnormal);
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { demoTasks: true });
    for (const u of ['provider', 'school', 'hospital']) tokens[u] = (await s.login(u)).token;
  }, 180_000);
  afterAll(() => s?.close());

  /** Every bar of the figures, gender, class, grade, day and scene charts of `user` under `f`. */
  async function checkBars(user: string, f: StatsFilter) {
    const reports = (await call(user, 'as.m.assess.getAssessCount', f)).count as number;
    const abnormal = (await call(user, 'as.m.assess.getAssessAbnormalCount', f)).count as number;
    await same(user, f, {}, { count: reports, abnormal });
    for (const r of (await call(user, 'as.m.assess.getManAndWomanAbnormalCountRatio', f)).rows) await same(user, f, { gender: r.gender }, r);
    const classes = (await call(user, 'as.m.assess.getClassReportCountRatio', f)).rows;
    for (const r of classes) await same(user, f, { teamid: r.teamid }, r);
    const grades = (await call(user, 'as.m.assess.getGradeReportCountRatio', f)).rows;
    for (const r of grades) await same(user, f, { grade: r.grade }, r);
    const days = (await call(user, 'as.m.assess.getAssessDayCountTrend', f)).rows.filter((r: Bar) => r.count);
    for (const r of days) await same(user, f, { startdate: r.date, enddate: r.date }, r);
    const scenes = (await call(user, 'as.m.assess.getSceneCountTrend', f)).rows.filter((r: Bar) => r.count);
    for (const r of scenes) {
      const last = new Date(Date.UTC(Number(r.month.slice(0, 4)), Number(r.month.slice(5, 7)), 0)).getUTCDate();
      const month = { startdate: `${r.month}-01`, enddate: `${r.month}-${String(last).padStart(2, '0')}` };
      // The month as the chart narrows it to the filter's own range.
      const startdate = f.startdate && f.startdate > month.startdate ? f.startdate : month.startdate;
      const enddate = f.enddate && f.enddate < month.enddate ? f.enddate : month.enddate;
      await same(user, f, { appid: r.appid, startdate, enddate }, r);
    }
    return { reports, classes: classes.length, grades: grades.length, days: days.length, scenes: scenes.length };
  }

  it('gives, for every bar, a report list whose total is the bar’s count (and its abnormal part)', async () => {
    const school = await checkBars('school', { startdate: '2026-10-01', enddate: '2026-11-21' });
    expect(school.reports).toBeGreaterThan(0);
    expect(school.classes).toBeGreaterThan(1);
    expect(school.grades).toBeGreaterThan(0);
    expect(school.days).toBeGreaterThan(1);
    expect(school.scenes).toBeGreaterThan(0);
    const provider = await checkBars('provider', { startdate: '2026-08-20', enddate: '2026-11-10' });
    expect(provider.scenes).toBeGreaterThan(1);
    await checkBars('provider', { provincecode: '330000', citycode: '330100', districtcode: '330108', startdate: '2026-11-01' });
    await checkBars('provider', { appid: '000000001', stagecode: 'ST-M2', startdate: '2025-12-01', enddate: '2026-11-21' });
  });

  it('splits the list in two by `counted`, and a region of none of the caller’s institutions lists nothing', async () => {
    const all = (await call('provider', 'as.m.exam.getCUserReportPageList', { pageSize: 1 })).total as number;
    const counted = await listTotal('provider', {}, {});
    const other = (await call('provider', 'as.m.exam.getCUserReportPageList', { counted: 0, pageSize: 1 })).total as number;
    expect(counted).toBeGreaterThan(0);
    expect(counted + other).toBe(all);
    expect(await listTotal('provider', { provincecode: '440000' }, {})).toBe(0);
  });

  it('refuses a bad gender or grade, and another institution’s class is not found', async () => {
    const list = (body: object, user = 'school') => s.call('as.m.exam.getCUserReportPageList', body, tokens[user]);
    expect((await list({ gender: '03' })).errorCode).toBe(ErrorCode.validation);
    expect((await list({ grade: 'x'.repeat(21) })).errorCode).toBe(ErrorCode.validation);
    const [team] = (await call('school', 'as.m.assess.getClassReportCountRatio', {})).rows;
    const refused = await list({ teamid: team.teamid }, 'hospital');
    expect([refused.errorCode, refused.errorMsg]).toEqual([ErrorCode.notFound, expect.stringMatching(/团体不存在|No such team/)]);
  });
});
