import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { consented, TEST_SIGNATURE } from '../../test/consent.js';

/**
 * Issue 31 §2 and §3 through the API: norms kept by the super account only and read by every
 * institution; a report carrying z and T against its form's default norm with the source; the
 * reliable change of a person's trend; and the worsening warning raised by a reliable
 * deterioration but not by a change within the index. The demo's SCL-90 person reads against
 * the built-in 1986 national norm.
 */
const phq = (scores: number[]) => scores.map((s, i) => ({ no: i + 1, option: s + 1 }));
const MINUTE = 60_000;

/** A made-up PHQ-9 norm for the test: SD 5 and r 0.84 give S_diff = 5 · √2 · 0.4 = 2.828, so 5.55 points are reliable. */
const PHQ_NORM = {
  formcode: 'PHQ9',
  name: { zh: '测试常模', en: 'Test norm' },
  population: { zh: '测试人群', en: 'Test population' },
  samplesize: 500,
  year: 2020,
  source: '测试来源 2020',
  scales: [{ code: 'TOTAL', mean: 5, sd: 5 }],
  change: { code: 'TOTAL', reliability: 0.84, reliabilitysource: '测试信度来源', cutoff: 9, higherworse: true },
  isdefault: 1,
};

/** The same made-up figures on GAD-7, for the edits (PHQ-9's norm serves the reports). */
const GAD_NORM = { ...PHQ_NORM, formcode: 'GAD7' };

describe.each(engines())('norms and reliable change on %s', (engine) => {
  let s: TestServer;
  let admin: string, school: string, provider: string;
  let plan: string;
  let ip = 0;

  const person = async (realname: string) => {
    const res = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname, gender: '01' }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.cusercode as string;
  };
  const answer = async (cusercode: string, scores: number[]) => {
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan }, school);
    expect(given.errorCode, given.errorMsg).toBe(0);
    const started = await s.call('as.c.exam.start', { assesscode: given.data.assesscode }, undefined, { 'x-test-ip': `10.31.0.${++ip}` });
    expect(started.errorCode, started.errorMsg).toBe(0);
    const token = await consented(s, started.data.token as string);
    expect((await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token)).errorCode).toBe(0);
    const sent = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: phq(scores) }, token);
    expect(sent.errorCode, sent.errorMsg).toBe(0);
    s.clock.advance(MINUTE); // the next report is later; sessions stay alive
    return sent.data.reportid as string;
  };
  const casesOf = async (cusercode: string, token = school) =>
    ((await s.call('as.m.warning.getCasePageList', { state: 'all', pageSize: 200 }, token)).data.rows as { caseid: string; cusercode: string; kinds: string[] }[]).filter(
      (r) => r.cusercode === cusercode,
    );

  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true });
    [admin, school, provider] = await Promise.all(['admin', 'school', 'provider'].map(async (u) => (await s.login(u)).token));
    const res = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '抑郁随访', formcodes: ['PHQ9'] }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    plan = res.data.plancode;
    // Fixed points on and level rises off: what worsens here is the score alone.
    const set = await s.call('as.m.warning.updateWarningSettings', { worsenpoints: 3, worsenlevels: 0, misseddays: 14, escalateminutes: 60 }, school);
    expect(set.errorCode, set.errorMsg).toBe(0);
    const made = await s.call('as.m.assess.norm.insertNorm', PHQ_NORM, admin);
    expect(made.errorCode, made.errorMsg).toBe(0);
  });
  afterAll(() => s?.close());

  it('ships the SCL-90 national norm of 1986 with its reliability; every institution reads the norms', async () => {
    const page = await s.call('as.m.assess.norm.getNormPage', { formcode: 'SCL90' }, school);
    expect(page.errorCode, page.errorMsg).toBe(0);
    expect(page.data.rows).toHaveLength(1);
    const n = page.data.rows[0];
    expect(n).toMatchObject({ normid: 'NMSCL90CN1986', formcode: 'SCL90', samplesize: 1388, year: 1986, isdefault: 1, builtin: true });
    expect(n.source).toContain('1388');
    expect(n.scales.find((x: { code: string }) => x.code === 'TOTAL')).toEqual({ code: 'TOTAL', name: '总分', mean: 129.96, sd: 38.76 });
    expect(n.scales.find((x: { code: string }) => x.code === 'SOM')).toMatchObject({ mean: 1.37, sd: 0.48 });
    expect(n.change).toMatchObject({ code: 'TOTAL', reliability: 0.98, cutoff: 160, higherworse: true });
    expect((await s.call('as.m.assess.norm.getNormPage', {}, provider)).errorCode).toBe(0);
  });

  it('lets only the super account add, change and delete a norm; bad input is refused in either language and changes nothing', async () => {
    const before = await fingerprint(s.database.db);
    for (const token of [school, provider]) {
      const res = await s.call('as.m.assess.norm.insertNorm', GAD_NORM, token);
      expect(res.errorCode).toBe(ErrorCode.permissionDenied);
      expect((await s.call('as.m.assess.norm.deleteNorm', { normid: 'NMSCL90CN1986' }, token)).errorCode).toBe(ErrorCode.permissionDenied);
    }
    const unknown = await s.call('as.m.assess.norm.insertNorm', { ...GAD_NORM, scales: [{ code: 'NOPE', mean: 1, sd: 1 }], change: null }, admin);
    expect(unknown.errorCode).toBe(ErrorCode.validation);
    expect(unknown.errorMsg).toBe('量表没有指标 NOPE');
    const en = await s.call('as.m.assess.norm.insertNorm', { ...GAD_NORM, change: { ...GAD_NORM.change, code: 'ITEM9' } }, admin, { 'accept-language': 'en-US' });
    expect(en.errorCode).toBe(ErrorCode.validation);
    expect(en.errorMsg).toMatch(/Reliable change uses ITEM9/);
    expect((await s.call('as.m.assess.norm.insertNorm', { ...GAD_NORM, scales: [{ code: 'TOTAL', mean: 5, sd: 0 }] }, admin)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.assess.norm.deleteNorm', { normid: 'NMSCL90CN1986' }, admin)).errorCode).toBe(ErrorCode.validation);
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);

    const made = await s.call('as.m.assess.norm.insertNorm', { ...GAD_NORM, isdefault: 0, name: { zh: '旧常模', en: 'Old norm' } }, admin);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const normid = made.data.normid as string;
    expect((await s.call('as.m.assess.norm.updateNorm', { normid, ...GAD_NORM, year: 2021 }, admin)).errorCode).toBe(0);
    const listed = await s.call('as.m.assess.norm.getNormPage', { formcode: 'GAD7' }, school);
    expect(listed.data.rows).toMatchObject([{ normid, year: 2021, isdefault: 1, builtin: false }]);
    // A second default takes the place of the first: one default per form.
    const second = await s.call('as.m.assess.norm.insertNorm', { ...GAD_NORM, name: { zh: '另一常模', en: 'Another' } }, admin);
    expect(second.errorCode).toBe(0);
    const both = await s.call('as.m.assess.norm.getNormPage', { formcode: 'GAD7' }, school);
    expect(both.data.rows.map((r: { normid: string; isdefault: number }) => [r.normid, r.isdefault])).toEqual([
      [second.data.normid, 1],
      [normid, 0],
    ]);
    expect((await s.call('as.m.assess.norm.deleteNorm', { normid: second.data.normid }, admin)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.norm.updateNorm', { normid, ...GAD_NORM }, admin)).errorCode).toBe(0);
  });

  it('a report carries z and T against the norm with its source, and labels reliable change on the trend', async () => {
    const cusercode = await person('常模甲');
    await answer(cusercode, [1, 1, 0, 0, 0, 0, 0, 0, 0]); // 2
    const second = await answer(cusercode, [1, 1, 1, 1, 1, 1, 1, 1, 1]); // 9
    const report = await s.call('as.m.exam.getCUserReport', { reportid: second }, school);
    expect(report.errorCode, report.errorMsg).toBe(0);
    // z = (9 − 5) / 5 = 0.8, T = 58.
    expect(report.data.norm).toMatchObject({ name: '测试常模', source: '测试来源 2020', samplesize: 500, year: 2020 });
    expect(report.data.norm.rows).toEqual([{ code: 'TOTAL', name: '总分', score: 9, mean: 5, sd: 5, z: 0.8, t: 58 }]);
    // 2 → 9: RCI = 7 / 2.828 = 2.47, a reliable deterioration; 9 is not above the cut-off 9.
    expect(report.data.trend.map((p: { change: unknown }) => p.change)).toEqual([
      null,
      expect.objectContaining({ from: 2, to: 9, rci: 2.47, label: 'deteriorated', crossing: null, reliabilitysource: '测试信度来源' }),
    ]);
    const [c] = await casesOf(cusercode);
    expect(c?.kinds).toContain('worsening');
    const detail = await s.call('as.m.warning.getCase', { caseid: c!.caseid }, school);
    expect(detail.data.warnings.find((w: { kind: string }) => w.kind === 'worsening')?.reason).toBe('较上次同一量表加重（可靠恶化，RCI 2.47，总分 2 → 9，等级 正常 → 轻度）');
    // The archive shows the same labels.
    const archive = await s.call('as.m.cuser.getCUserArchive', { cusercode }, school);
    expect(archive.errorCode, archive.errorMsg).toBe(0);
    expect(archive.data.reports.map((r: { change: { label: string } | null }) => r.change?.label ?? null)).toEqual([null, 'deteriorated']);
  });

  it('a change beyond the fixed points but within the index raises no worsening; crossing the cut-off is marked', async () => {
    const cusercode = await person('常模乙');
    await answer(cusercode, [1, 1, 1, 1, 1, 1, 0, 0, 0]); // 6
    const second = await answer(cusercode, [2, 2, 1, 1, 1, 1, 1, 1, 1]); // 11: +5 ≥ 3 points, RCI 1.77
    expect((await casesOf(cusercode)).flatMap((c) => c.kinds)).not.toContain('worsening');
    const report = await s.call('as.m.exam.getCUserReport', { reportid: second }, school);
    expect(report.data.trend[1].change).toMatchObject({ from: 6, to: 11, rci: 1.77, label: 'unchanged', crossing: 'into' });
    // Without the norm's rule the fixed points decide again.
    const [n] = (await s.call('as.m.assess.norm.getNormPage', { formcode: 'PHQ9' }, admin)).data.rows;
    expect((await s.call('as.m.assess.norm.updateNorm', { normid: n.normid, ...PHQ_NORM, change: null }, admin)).errorCode).toBe(0);
    const other = await person('常模丙');
    await answer(other, [1, 1, 1, 1, 1, 1, 0, 0, 0]);
    await answer(other, [2, 2, 1, 1, 1, 1, 1, 1, 1]);
    expect((await casesOf(other)).flatMap((c) => c.kinds)).toContain('worsening');
    expect((await s.call('as.m.assess.norm.updateNorm', { normid: n.normid, ...PHQ_NORM }, admin)).errorCode).toBe(0);
  });

  it('the demo’s working adult reads against the SCL-90 national norm with a reliable deterioration and its warning', async () => {
    const warning = (await s.login('warning')).token; // I0004
    const list = await s.call('as.m.exam.getCUserReportPageList', { formcode: 'SCL90', pageSize: 10 }, warning);
    expect(list.errorCode, list.errorMsg).toBe(0);
    expect(list.data.total).toBe(2);
    const latest = list.data.rows[0];
    const report = await s.call('as.m.exam.getCUserReport', { reportid: latest.reportid }, warning);
    expect(report.data.norm).toMatchObject({ normid: 'NMSCL90CN1986', year: 1986, samplesize: 1388 });
    // (172 − 129.96) / 38.76 = 1.08, T 60.8.
    expect(report.data.norm.rows[0]).toMatchObject({ code: 'TOTAL', score: 172, z: 1.08, t: 60.8 });
    expect(report.data.trend[1].change).toMatchObject({ from: 120, to: 172, rci: 6.71, label: 'deteriorated', crossing: 'into' });
    const cases = await casesOf(latest.cusercode, warning);
    expect(cases.flatMap((c) => c.kinds)).toContain('worsening');
  });
});
