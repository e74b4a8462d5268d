/**
 * The custom report (issue 31 §4) through the API: designing templates (create, list, read, save
 * as a new version, delete), old versions never changing, a plan of app 000000005 picking a
 * template, a report keeping the version it was first printed with after the template changes,
 * what the respondent sees, previews, refusals of bad input, and another institution's template
 * or report being "not found". The demo's clinic is seeded through the same actions.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, type TemplateBody } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../../test/harness.js';
import { consented, TEST_SIGNATURE } from '../../../test/consent.js';
import { handlers } from '../../index.js';
import { DEMO_TEMPLATE, seedDemoCustomReports } from './demo.js';
import { reportTemplateUse, reportTemplateVersion } from './tables.js';
import { eq } from 'drizzle-orm';

/** PHQ-9 item scores 2,2,2,1,1,1,1,1,0 = 11 (moderate, level 2); GAD-7 all 0 = 0 (minimal, level 0). */
const PHQ = [2, 2, 2, 1, 1, 1, 1, 1, 0];
const GAD = [0, 0, 0, 0, 0, 0, 0];
const sheet = (scores: number[]) => scores.map((s, i) => ({ no: i + 1, option: s + 1 }));

const body = (over: Partial<TemplateBody> = {}): TemplateBody => ({
  name: '门诊评估报告',
  title: '门诊心理评估报告 一',
  headername: '朝阳妇产医院心理门诊',
  logofileid: null,
  formcodes: ['PHQ9', 'GAD7'],
  sections: ['summary', 'indicators', 'norms', 'advice', 'signoff'],
  respondent: ['summary'],
  bandtexts: [{ indicator: 'TOTAL', level: 2, text: '模板文字：中度，两周内随访。' }],
  signoff: '评估医生：＿＿＿＿',
  ...over,
});

describe.each(engines())('custom report templates on %s', (engine) => {
  let s: TestServer;
  let clinic: string, hospital: string, provider2: string;
  let plan: string;
  let ip = 0;

  beforeAll(async () => {
    s = await startTestServer(engine);
    clinic = (await s.login('bjhospital')).token;
    const res = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000005', planname: '门诊初诊', formcodes: ['PHQ9', 'GAD7'] }, clinic);
    expect(res.errorCode, res.errorMsg).toBe(0);
    plan = res.data.plancode;
    // The clinic shows results to its respondents (its provider sets the entry up).
    const entry = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0008', title: '门诊心理评估', consent: '知情同意书', appids: ['000000005'], showresult: 1, hotline: '010-12345678' },
      (await s.login('provider2')).token,
    );
    expect(entry.errorCode, entry.errorMsg).toBe(0);
  });
  beforeEach(async () => {
    [clinic, hospital, provider2] = await Promise.all(['bjhospital', 'hospital', 'provider2'].map(async (u) => (await s.login(u)).token));
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A patient of the clinic who answered the plan; answers the respondent token and the two report ids. */
  async function assessed(realname: string) {
    const person = await s.call('as.m.cuser.insertCUser', { appid: '000000005', realname, gender: '02', birthdate: '1992-03-04' }, clinic);
    expect(person.errorCode, person.errorMsg).toBe(0);
    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode: person.data.cusercode, plancode: plan }, clinic);
    expect(given.errorCode, given.errorMsg).toBe(0);
    const started = await s.call('as.c.exam.start', { assesscode: given.data.assesscode }, undefined, { 'x-test-ip': `10.31.0.${++ip}` });
    const token = await consented(s, started.data.token);
    await s.call('as.c.exam.sign', { signature: TEST_SIGNATURE }, token);
    const a = await s.call('as.c.exam.submit', { formcode: 'PHQ9', answers: sheet(PHQ) }, token);
    const b = await s.call('as.c.exam.submit', { formcode: 'GAD7', answers: sheet(GAD) }, token);
    expect([a.errorCode, b.errorCode]).toEqual([0, 0]);
    return { token, phq: a.data.reportid as string, gad: b.data.reportid as string };
  }

  const documentOf = async (reportid: string) => {
    const res = await s.call('as.m.exam.getReportDocument', { reportid }, clinic);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.html as string;
  };

  it('creates, lists, reads, saves new versions without changing old ones, and refuses bad input', async () => {
    const made = await s.call('as.m.reportTemplate.insert', body({ name: '版本测试' }), clinic);
    expect(made.errorCode, made.errorMsg).toBe(0);
    expect(made.data.version).toBe(1);
    const templateid: string = made.data.templateid;

    const twice = await s.call('as.m.reportTemplate.insert', body({ name: '版本测试' }), clinic, { 'accept-language': 'en-US' });
    expect(twice.errorCode).toBe(ErrorCode.conflict);
    expect(twice.errorMsg).toMatch(/already exists/);

    const saved = await s.call('as.m.reportTemplate.update', { templateid, ...body({ name: '版本测试', title: '第二版标题', sections: ['summary'] }) }, clinic);
    expect(saved.errorCode, saved.errorMsg).toBe(0);
    expect(saved.data.version).toBe(2);

    const now = await s.call('as.m.reportTemplate.get', { templateid }, clinic);
    expect(now.data.version).toBe(2);
    expect(now.data.body.title).toBe('第二版标题');
    expect(now.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const first = await s.call('as.m.reportTemplate.get', { templateid, version: 1 }, clinic);
    expect(first.data.body.title).toBe('门诊心理评估报告 一');
    expect(first.data.body.sections).toEqual(['summary', 'indicators', 'norms', 'advice', 'signoff']);

    const page = await s.call('as.m.reportTemplate.getPage', { page: 1, pageSize: 20, name: '版本' }, clinic);
    expect(page.data.rows).toEqual([expect.objectContaining({ templateid, name: '版本测试', version: 2, formcodes: ['PHQ9', 'GAD7'] })]);

    // Bad input changes nothing: no sections, a section twice, a form that does not exist.
    for (const bad of [body({ sections: [] }), body({ sections: ['summary', 'summary'] }), body({ formcodes: ['NOSUCHFORM'] })]) {
      const res = await s.call('as.m.reportTemplate.update', { templateid, ...bad }, clinic);
      expect([ErrorCode.validation, ErrorCode.notFound]).toContain(res.errorCode);
    }
    expect((await s.call('as.m.reportTemplate.get', { templateid }, clinic)).data.version).toBe(2);

    expect((await s.call('as.m.reportTemplate.delete', { templateid }, clinic)).errorCode).toBe(0);
    expect((await s.call('as.m.reportTemplate.get', { templateid }, clinic)).errorCode).toBe(ErrorCode.notFound);
  });

  const keptVersion = async (reportid: string) =>
    (
      await s.database.db
        .select({ version: reportTemplateVersion.version })
        .from(reportTemplateUse)
        .innerJoin(reportTemplateVersion, eq(reportTemplateVersion.versionid, reportTemplateUse.versionid))
        .where(eq(reportTemplateUse.assessid, reportid))
    )[0]?.version;

  it('a report keeps the version of the day it was scored; the respondent sees only what the template allows', async () => {
    const made = await s.call('as.m.reportTemplate.insert', body(), clinic);
    const templateid: string = made.data.templateid;
    expect((await s.call('as.m.reportTemplate.setPlanTemplate', { plancode: plan, templateid }, clinic)).errorCode).toBe(0);

    const first = await assessed('王一');
    // Recorded when the reports were stored, before anyone has shown or printed them.
    expect([await keptVersion(first.phq), await keptVersion(first.gad)]).toEqual([1, 1]);
    const html = await documentOf(first.phq);
    expect(html).toContain('门诊心理评估报告 一');
    expect(html).toContain('朝阳妇产医院心理门诊');
    expect(html).toContain('模板文字：中度，两周内随访。');
    expect(html).toContain('评估医生：＿＿＿＿');
    // No norm data for the form: the norms section says so in one neutral line.
    expect(html).toContain('此量表暂无可比较的常模数据。');
    // The answers section is not in this version.
    expect(html).not.toContain('作答明细');

    // The respondent: the summary only (no indicators), whatever the form's own texts say.
    const seen = await s.call('as.c.exam.getResult', { reportid: first.phq }, first.token);
    expect(seen.errorCode, seen.errorMsg).toBe(0);
    expect(seen.data.shown).toBe(true);
    expect(seen.data.mentalstate).not.toBeNull();
    expect(seen.data.indicators).toEqual([]);

    // The template changes: version 2 shows the answers, another title, the band text to the respondent.
    const v2 = body({ title: '门诊心理评估报告 二', sections: ['summary', 'answers'], respondent: ['indicators', 'bandtext'] });
    expect((await s.call('as.m.reportTemplate.update', { templateid, ...v2 }, clinic)).data.version).toBe(2);
    const again = await documentOf(first.phq);
    expect(again).toContain('门诊心理评估报告 一');
    expect(again).not.toContain('作答明细');
    // Its GAD-7 report was never shown before the change: it keeps the version of its scoring too.
    expect(await documentOf(first.gad)).toContain('门诊心理评估报告 一');

    const later = await assessed('王二');
    const next = await documentOf(later.phq);
    expect(next).toContain('门诊心理评估报告 二');
    expect(next).toContain('作答明细');
    const laterSeen = await s.call('as.c.exam.getResult', { reportid: later.phq }, later.token);
    expect(laterSeen.data.mentalstate).toBeNull();
    expect(laterSeen.data.indicators[0]).toMatchObject({ score: 11, level: 2, interpretation: { zh: '模板文字：中度，两周内随访。' }, advice: null });
    // The first respondent still sees what version 1 allowed.
    expect((await s.call('as.c.exam.getResult', { reportid: first.phq }, first.token)).data.indicators).toEqual([]);

    // The versions count their reports, and they are stored as such.
    const detail = await s.call('as.m.reportTemplate.get', { templateid }, clinic);
    expect(detail.data.versions).toEqual([expect.objectContaining({ version: 2, reports: 2 }), expect.objectContaining({ version: 1, reports: 2 })]);
    expect(detail.data.plancodes).toEqual([plan]);
    expect([await keptVersion(first.phq), await keptVersion(later.phq)]).toEqual([1, 2]);

    // A template reports were rendered with cannot be deleted.
    const del = await s.call('as.m.reportTemplate.delete', { templateid }, clinic, { 'accept-language': 'en-US' });
    expect(del.errorCode).toBe(ErrorCode.conflict);
    expect(del.errorMsg).toMatch(/cannot be deleted/);

    // Preview of a body against a real report and against the sample; nothing is stored.
    const preview = await s.call('as.m.reportTemplate.preview', { body: body({ title: '预览标题' }), reportid: later.gad }, clinic);
    expect(preview.errorCode, preview.errorMsg).toBe(0);
    expect(preview.data.html).toContain('预览标题');
    const sample = await s.call('as.m.reportTemplate.preview', { body: body({ title: '样例标题' }) }, clinic);
    expect(sample.data.html).toContain('样例标题');
    expect(sample.data.html).toContain('示例受测者');
    expect((await s.call('as.m.reportTemplate.get', { templateid }, clinic)).data.versions[0].reports).toBe(2);
  });

  it('a report stored before versions were kept at scoring keeps the version current when it is first shown', async () => {
    const made = await s.call('as.m.reportTemplate.insert', body({ name: '旧报告', title: '旧报告 一' }), clinic);
    const templateid: string = made.data.templateid;
    expect((await s.call('as.m.reportTemplate.setPlanTemplate', { plancode: plan, templateid }, clinic)).errorCode).toBe(0);
    const older = await assessed('王旧');
    // As a report stored before this release: no version recorded.
    await s.database.db.delete(reportTemplateUse).where(eq(reportTemplateUse.assessid, older.phq));
    expect(await keptVersion(older.phq)).toBeUndefined();
    expect((await s.call('as.m.reportTemplate.update', { templateid, ...body({ name: '旧报告', title: '旧报告 二' }) }, clinic)).data.version).toBe(2);
    const page = await s.call('as.m.exam.getCUserReport', { reportid: older.phq }, clinic);
    expect(page.data.layout).toMatchObject({ title: '旧报告 二', version: 2 });
    expect(await keptVersion(older.phq)).toBe(2);
    // Saved again: it keeps version 2; its GAD-7 report, recorded at scoring, keeps version 1.
    await s.call('as.m.reportTemplate.update', { templateid, ...body({ name: '旧报告', title: '旧报告 三' }) }, clinic);
    expect(await documentOf(older.phq)).toContain('旧报告 二');
    expect(await documentOf(older.gad)).toContain('旧报告 一');
  });

  it('the console’s report page gets the layout the print has: header, sections in order, band texts; none for a standard report', async () => {
    const made = await s.call('as.m.reportTemplate.insert', body({ name: '页面布局', sections: ['indicators', 'summary', 'advice', 'signoff'] }), clinic);
    const templateid: string = made.data.templateid;
    expect((await s.call('as.m.reportTemplate.setPlanTemplate', { plancode: plan, templateid }, clinic)).errorCode).toBe(0);
    const patient = await assessed('王页');
    const res = await s.call('as.m.exam.getCUserReport', { reportid: patient.phq }, clinic);
    expect(res.errorCode, res.errorMsg).toBe(0);
    expect(res.data.layout).toEqual({
      name: '页面布局',
      version: 1,
      title: '门诊心理评估报告 一',
      headername: '朝阳妇产医院心理门诊',
      logo: null,
      sections: ['indicators', 'summary', 'advice', 'signoff'],
      signoff: '评估医生：＿＿＿＿',
    });
    // PHQ-9 total 11 is level 2: the template's own text is its interpretation, as in the print.
    expect(res.data.indicators[0]).toMatchObject({ code: 'TOTAL', level: 2, interpretation: { zh: '模板文字：中度，两周内随访。' } });
    expect(await documentOf(patient.phq)).toContain('模板文字：中度，两周内随访。');
    // A report of a plan without a template: the standard page.
    await s.call('as.m.reportTemplate.setPlanTemplate', { plancode: plan, templateid: null }, clinic);
    const plain = await assessed('王常');
    const standard = await s.call('as.m.exam.getCUserReport', { reportid: plain.phq }, clinic);
    expect(standard.data.layout).toBeNull();
    expect(standard.data.indicators[0].interpretation?.zh).not.toContain('模板文字');
    expect(await keptVersion(plain.phq)).toBeUndefined();
  });

  it('isolates institutions: another institution’s template, plan or report is not found; the provider sees its institutions’', async () => {
    const made = await s.call('as.m.reportTemplate.insert', body({ name: '隔离测试' }), clinic);
    const templateid: string = made.data.templateid;
    expect((await s.call('as.m.reportTemplate.get', { templateid }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.reportTemplate.update', { templateid, ...body() }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.reportTemplate.delete', { templateid }, hospital)).errorCode).toBe(ErrorCode.notFound);
    const theirs = await s.call('as.m.reportTemplate.getPage', { page: 1, pageSize: 50 }, hospital);
    expect(theirs.data.rows.map((r: { templateid: string }) => r.templateid)).not.toContain(templateid);
    // The hospital's own template cannot be put on the clinic's plan, nor the clinic's on a plan of another app.
    const own = await s.call('as.m.reportTemplate.insert', body({ name: '医院模板' }), hospital);
    expect(own.errorCode, own.errorMsg).toBe(0);
    expect((await s.call('as.m.reportTemplate.setPlanTemplate', { plancode: plan, templateid: own.data.templateid }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.reportTemplate.setPlanTemplate', { plancode: plan, templateid: own.data.templateid }, clinic)).errorCode).toBe(ErrorCode.notFound);
    const other = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000001', planname: '孕期筛查', formcodes: ['PHQ9'] }, clinic);
    const wrongApp = await s.call('as.m.reportTemplate.setPlanTemplate', { plancode: other.data.plancode, templateid }, clinic, { 'accept-language': 'en-US' });
    expect(wrongApp.errorCode).toBe(ErrorCode.validation);
    expect(wrongApp.errorMsg).toMatch(/custom report app/);
    // Previewing against another institution's report is "not found".
    const patient = await assessed('王三');
    expect((await s.call('as.m.reportTemplate.preview', { body: body(), reportid: patient.phq }, hospital)).errorCode).toBe(ErrorCode.notFound);
    // The clinic's provider designs for it: it sees and edits the clinic's template.
    const seen = await s.call('as.m.reportTemplate.get', { templateid }, provider2);
    expect(seen.errorCode, seen.errorMsg).toBe(0);
    const forClinic = await s.call('as.m.reportTemplate.insert', { ...body({ name: '服务商为门诊设计' }), musercode: 'I0008' }, provider2);
    expect(forClinic.errorCode, forClinic.errorMsg).toBe(0);
    expect((await s.call('as.m.reportTemplate.get', { templateid: forClinic.data.templateid }, clinic)).data.musercode).toBe('I0008');
    expect((await s.call('as.m.reportTemplate.insert', { ...body({ name: '越权' }), musercode: 'I0008' }, hospital)).errorCode).toBe(ErrorCode.notFound);
  });

  it('the demo clinic’s reports follow its template, the first ones keeping version 1', async () => {
    await seedDemoCustomReports(s.database.db, s.clock.now(), handlers);
    const page = await s.call('as.m.reportTemplate.getPage', { page: 1, pageSize: 50, name: DEMO_TEMPLATE.name }, clinic);
    expect(page.data.rows).toEqual([expect.objectContaining({ name: DEMO_TEMPLATE.name, version: 2, plans: ['心理门诊初诊评估'] })]);
    const detail = await s.call('as.m.reportTemplate.get', { templateid: page.data.rows[0].templateid }, clinic);
    expect(detail.data.versions).toEqual([expect.objectContaining({ version: 2, reports: 4 }), expect.objectContaining({ version: 1, reports: 4 })]);
  });
});
