import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { ErrorCode } from '@xinli/contract';
import type { AnyPgTable } from 'drizzle-orm/pg-core';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { plan, planAuthorize, planForm, planStage } from './tables.js';
import { insertTestForm } from '../scales/test-forms.js';

describe.each(engines())('assessment plans on %s', (engine) => {
  let s: TestServer;
  let school: string, provider: string, teacher: string, bureau: string;
  let stageA: string, stageB: string, schoolPlan: string;
  const rows = async (t: AnyPgTable) => Number((await s.database.db.select({ n: count() }).from(t))[0]!.n);
  const planRows = async () => [await rows(plan), await rows(planStage), await rows(planForm), await rows(planAuthorize)];

  beforeAll(async () => {
    s = await startTestServer(engine);
    await insertTestForm(s.database.db, 'TPA', null, ['000000002']);
    await insertTestForm(s.database.db, 'TPB', 'I0001', ['000000002']);
    await insertTestForm(s.database.db, 'TPC', null, ['000000002']);
    await insertTestForm(s.database.db, 'TPH', 'I0002', ['000000001']);
    [school, provider, teacher, bureau] = await Promise.all(['school', 'provider', 'teacher', 'bureau'].map(async (u) => (await s.login(u)).token));
    stageA = (await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0202', stagename: '入学', formcodes: ['TPA', 'TPB'] }, school)).data.stagecode;
    stageB = (await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0202', stagename: '期末', formcodes: ['TPA'] }, school)).data.stagecode;
  });
  afterAll(() => s?.close());

  it('creates a plan of stages and forms and reads it back every way', async () => {
    const res = await s.call(
      'as.m.exam.plan.insertMUserExamPlan',
      { appid: '000000002', planname: '初一心理测试计划', description: '每学期一次', stages: [{ stagecode: stageA }, { stagecode: stageB, formcodes: ['TPC'] }], formcodes: ['TPB'] },
      school,
    );
    expect(res.errorCode).toBe(0);
    schoolPlan = res.data.plancode;
    const page = await s.call('as.m.exam.plan.getMUserExamPlanPage', { planname: '测试计划' }, school);
    expect(page.data.total).toBe(1);
    expect(page.data.rows[0]).toMatchObject({ plancode: schoolPlan, musercode: 'I0001', insname: '滨江第一中学', stagecount: 2, formcount: 4, iscommon: 0, enabled: 1, editable: true });
    const forms = await s.call('as.m.exam.plan.getPlanForm', { plancode: schoolPlan }, school);
    expect(forms.data.map((f: { stagecode: string; formcode: string }) => `${f.stagecode === '' ? '-' : f.stagecode === stageA ? 'A' : 'B'}:${f.formcode}`)).toEqual(['A:TPA', 'A:TPB', 'B:TPC', '-:TPB']);
    const stages = await s.call('as.m.exam.plan.getPlanStage', { plancode: schoolPlan }, school);
    expect(stages.data.map((x: { stagename: string; forms: unknown[] }) => [x.stagename, x.forms.length])).toEqual([['入学', 2], ['期末', 1]]);
    const details = await s.call('as.m.exam.plan.getPlanFormDetails', { plancode: schoolPlan }, school);
    expect(details.data[0].definition.questions).toHaveLength(2);
    const info = await s.call('as.m.assess.getFormInfoByPlanCode', { plancode: schoolPlan }, school);
    expect(info.data).toMatchObject({ plancode: schoolPlan, planname: '初一心理测试计划', appid: '000000002' });
    expect(info.data.forms).toHaveLength(4);
  });

  it('lets every account that gives plans load the stages of the plans it may give (issue 28: the hospital got 100403)', async () => {
    const hospital = (await s.login('hospital')).token;
    const res = await s.call('as.m.exam.plan.getPlanStage', { plancode: 'PL-M1' }, hospital);
    expect(res.errorCode, res.errorMsg).toBe(0);
    expect(res.data.map((x: { stagecode: string; forms: unknown[] }) => [x.stagecode, x.forms.length])).toEqual([
      ['ST-M1', 2],
      ['ST-M2', 2],
      ['ST-M3', 2],
      ['ST-M4', 2],
    ]);
    // Scoped to the plans it may give: another institution's plan is not found.
    expect((await s.call('as.m.exam.plan.getPlanStage', { plancode: schoolPlan }, hospital)).errorCode).toBe(ErrorCode.notFound);
  });

  it('refuses bad input and changes nothing', async () => {
    const before = await planRows();
    const base = { appid: '000000002', planname: 'x', stages: [], formcodes: [] };
    expect((await s.call('as.m.exam.plan.insertMUserExamPlan', { ...base, planname: '' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.exam.plan.insertMUserExamPlan', { ...base, appid: '123456789' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.exam.plan.insertMUserExamPlan', { ...base, formcodes: ['TPA', 'TPH'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.insertMUserExamPlan', { ...base, appid: '000000001', stages: [{ stagecode: stageA }] }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.exam.plan.insertMUserExamPlan', { ...base, stages: [{ stagecode: stageA, formcodes: ['NOPE'] }] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.updateMUserExamPlan', { plancode: schoolPlan, planname: '改名', formcodes: ['TPH'] }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.authorizePlan', { plancode: schoolPlan, musercode: 'I0001', count: 10, startdate: '2026-11-01', enddate: '2026-12-31' }, provider)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.exam.plan.authorizePlan', { plancode: schoolPlan, musercode: 'I0002', count: 10, startdate: '2026-12-31', enddate: '2026-11-01' }, provider)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.exam.plan.authorizePlan', { plancode: schoolPlan, musercode: 'I0002', count: 10, startdate: '2026-02-30', enddate: '2026-12-01' }, provider)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.exam.plan.authorizePlan', { plancode: schoolPlan, musercode: 'I0002', count: 0, startdate: '2026-11-01', enddate: '2026-12-01' }, provider)).errorCode).toBe(ErrorCode.validation);
    const admin = (await s.login('admin')).token;
    expect((await s.call('as.m.exam.plan.authorizePlan', { plancode: schoolPlan, musercode: 'NOSUCH', count: 1, startdate: '2026-11-01', enddate: '2026-12-01' }, admin)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.insertMUserExamPlan', { ...base, musercode: 'NOSUCH' }, admin)).errorCode).toBe(ErrorCode.notFound);
    expect(await planRows()).toEqual(before);
    expect((await s.call('as.m.exam.plan.getMUserExamPlanPage', { planname: '改名' }, school)).data.total).toBe(0);
  });

  it('refuses callers without the plan library code', async () => {
    const before = await planRows();
    const calls: [string, Record<string, unknown>][] = [
      ['as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: 'x' }],
      ['as.m.exam.plan.getMUserExamPlanPage', {}],
      ['as.m.exam.plan.updateMUserExamPlan', { plancode: schoolPlan, planname: 'x' }],
      ['as.m.exam.plan.deleteMUserExamPlan', { plancode: schoolPlan }],
      ['as.m.exam.plan.getPlanForm', { plancode: schoolPlan }],
      ['as.m.exam.plan.getPlanFormDetails', { plancode: schoolPlan }],
      ['as.m.exam.plan.updatePlanIsCommon', { plancode: schoolPlan, iscommon: 1 }],
      // getPlanStage is not here: the teacher gives assessments (00018), and the give dialog loads a plan's stages.
      ['as.m.exam.plan.authorizePlan', { plancode: schoolPlan, musercode: 'I0002', count: 1, startdate: '2026-11-01', enddate: '2026-11-02' }],
      ['as.m.exam.plan.getPlanAuthorizeList', {}],
      ['as.m.exam.plan.revokePlanAuthorize', { authid: 'x' }],
    ];
    for (const [name, body] of calls) {
      expect((await s.call(name as never, body, teacher)).errorCode, `teacher ${name}`).toBe(ErrorCode.permissionDenied);
      expect((await s.call(name as never, body, bureau)).errorCode, `bureau ${name}`).toBe(ErrorCode.permissionDenied);
    }
    // Individual assessment (00018, which the teacher holds) reads a plan's forms; the bureau cannot.
    expect((await s.call('as.m.assess.getFormInfoByPlanCode', { plancode: schoolPlan }, teacher)).errorCode).toBe(0);
    expect((await s.call('as.m.assess.getFormInfoByPlanCode', { plancode: schoolPlan }, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
    // ... and lists the plans it may give (the plan picker of the /empower pages); the bureau cannot.
    const pick = { musercodes: ['I0001'], page: 1, pageSize: 20 };
    expect((await s.call('as.m.exam.plan.getMultipleMUserExamPlanPage', pick, teacher)).errorCode).toBe(0);
    expect((await s.call('as.m.exam.plan.getMultipleMUserExamPlanPage', pick, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
    // ... and the stages of a plan, to give one stage of it; the bureau cannot.
    expect((await s.call('as.m.exam.plan.getPlanStage', { plancode: schoolPlan }, teacher)).errorCode).toBe(0);
    expect((await s.call('as.m.exam.plan.getPlanStage', { plancode: schoolPlan }, bureau)).errorCode).toBe(ErrorCode.permissionDenied);
    expect(await planRows()).toEqual(before);
  });

  it('updates a plan, marks it frequently used and lists those first', async () => {
    const other = (await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '期末复测计划', formcodes: ['TPA'] }, school)).data.plancode;
    expect((await s.call('as.m.exam.plan.updatePlanIsCommon', { plancode: schoolPlan, iscommon: 1 }, school)).errorCode).toBe(0);
    const page = await s.call('as.m.exam.plan.getMUserExamPlanPage', { musercode: 'I0001', appid: '000000002', planname: '计划' }, school);
    expect(page.data.rows.map((r: { plancode: string }) => r.plancode)).toEqual([schoolPlan, other]);
    const common = await s.call('as.m.exam.plan.getMUserExamPlanPage', { iscommon: 1 }, school);
    expect(common.data.rows.map((r: { plancode: string }) => r.plancode).sort()).toEqual(['PL-S1', schoolPlan].sort());
    expect((await s.call('as.m.exam.plan.updateMUserExamPlan', { plancode: other, planname: '期末复测（新）', enabled: 0, stages: [{ stagecode: stageB }] }, school)).errorCode).toBe(0);
    const [row] = (await s.call('as.m.exam.plan.getMUserExamPlanPage', { planname: '（新）' }, school)).data.rows;
    expect(row).toMatchObject({ enabled: 0, stagecount: 1, formcount: 2 });
    // Changing only the stages keeps the loose forms.
    expect((await s.call('as.m.exam.plan.getPlanForm', { plancode: other }, school)).data.map((f: { formcode: string }) => f.formcode)).toEqual(['TPA', 'TPA']);
    expect((await s.call('as.m.exam.plan.deleteMUserExamPlan', { plancode: other }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.exam.plan.getPlanForm', { plancode: other }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('authorises a provider plan to its institutions; the receiver reads it but cannot change or revoke it', async () => {
    const pp = (await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '服务商学生计划', formcodes: ['TPA', 'TPC'] }, provider)).data.plancode;
    // Before the authorisation, the school does not see it.
    expect((await s.call('as.m.exam.plan.getPlanForm', { plancode: pp }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.authorizePlan', { plancode: pp, musercode: 'I0004', count: 5, startdate: '2026-11-01', enddate: '2026-12-31' }, provider)).errorCode).toBe(ErrorCode.notFound);
    const auth = await s.call('as.m.exam.plan.authorizePlan', { plancode: pp, musercode: 'I0001', count: 100, startdate: '2026-11-01', enddate: '2026-12-31' }, provider);
    expect(auth.errorCode).toBe(0);
    await s.call('as.m.exam.plan.authorizePlan', { plancode: pp, musercode: 'I0002', count: 30, startdate: '2027-01-01', enddate: '2027-06-30' }, provider);

    expect((await s.call('as.m.exam.plan.getPlanForm', { plancode: pp }, school)).data).toHaveLength(2);
    expect((await s.call('as.m.assess.getFormInfoByPlanCode', { plancode: pp }, school)).data.forms).toHaveLength(2);
    expect((await s.call('as.m.exam.plan.updateMUserExamPlan', { plancode: pp, planname: 'x' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.updatePlanIsCommon', { plancode: pp, iscommon: 1 }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.deleteMUserExamPlan', { plancode: pp }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.revokePlanAuthorize', { authid: auth.data.authid }, school)).errorCode).toBe(ErrorCode.permissionDenied);

    const mine = await s.call('as.m.exam.plan.getPlanAuthorizeList', {}, school);
    expect(mine.data.rows.filter((r: { plancode: string }) => r.plancode === pp)).toEqual([expect.objectContaining({ musercode: 'I0001', insname: '滨江第一中学', count: 100, usedcount: 0, status: 'active', startdate: '2026-11-01' })]);
    const all = await s.call('as.m.exam.plan.getPlanAuthorizeList', { plancode: pp }, provider);
    expect(all.data.rows.map((r: { musercode: string; status: string }) => `${r.musercode}:${r.status}`).sort()).toEqual(['I0001:active', 'I0002:pending']);
    expect((await s.call('as.m.exam.plan.getPlanAuthorizeList', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);

    const multi = await s.call('as.m.exam.plan.getMultipleMUserExamPlanPage', { musercodes: ['I0001', 'I0002'], pageSize: 200 }, provider);
    const pairs = multi.data.rows.map((r: { holder: string; plancode: string; origin: string }) => `${r.holder}:${r.plancode === pp ? 'pp' : r.plancode === schoolPlan ? 'school' : 'other'}:${r.origin}`);
    expect(pairs).toEqual(expect.arrayContaining(['I0001:pp:authorized', 'I0001:school:own', 'I0002:pp:authorized']));
    // Institution names: the holder's, and the owner's (the provider's for an authorised plan).
    const names = multi.data.rows.map((r: { holder: string; holdername: string; insname: string; origin: string }) => `${r.holder}:${r.holdername}:${r.origin}:${r.insname}`);
    expect(names).toEqual(expect.arrayContaining(['I0001:滨江第一中学:own:滨江第一中学', 'I0002:仁和妇幼保健院:authorized:安心心理服务有限公司']));
    expect((await s.call('as.m.exam.plan.getMultipleMUserExamPlanPage', { musercodes: ['I0001', 'I0002'] }, school)).errorCode).toBe(ErrorCode.notFound);
    // The school sees the provider plan as authorised, not editable, and not among its own.
    expect((await s.call('as.m.exam.plan.getMUserExamPlanPage', { musercode: 'P0001' }, school)).errorCode).toBe(ErrorCode.notFound);

    expect((await s.call('as.m.exam.plan.deleteMUserExamPlan', { plancode: pp }, provider)).errorCode).toBe(ErrorCode.conflict);
    for (const r of all.data.rows) expect((await s.call('as.m.exam.plan.revokePlanAuthorize', { authid: r.authid }, provider)).errorCode).toBe(0);
    expect((await s.call('as.m.exam.plan.getPlanForm', { plancode: pp }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.revokePlanAuthorize', { authid: auth.data.authid }, provider)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.deleteMUserExamPlan', { plancode: pp }, provider)).errorCode).toBe(0);
  });

  it('keeps another institution’s plans out of reach; the provider sees its institutions’', async () => {
    const hp = (await s.call('as.m.exam.plan.insertMUserExamPlan', { musercode: 'I0002', appid: '000000001', planname: '孕产期筛查', formcodes: ['TPH'] }, provider)).data.plancode;
    for (const name of ['as.m.exam.plan.getPlanForm', 'as.m.exam.plan.getPlanFormDetails', 'as.m.exam.plan.getPlanStage', 'as.m.assess.getFormInfoByPlanCode', 'as.m.exam.plan.deleteMUserExamPlan'] as const) {
      expect((await s.call(name, { plancode: hp }, school)).errorCode, name).toBe(ErrorCode.notFound);
    }
    expect((await s.call('as.m.exam.plan.getMUserExamPlanPage', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.getPlanAuthorizeList', { plancode: hp }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.plan.insertMUserExamPlan', { musercode: 'I0002', appid: '000000001', planname: 'x' }, school)).errorCode).toBe(ErrorCode.notFound);
    const seen = await s.call('as.m.exam.plan.getMUserExamPlanPage', { musercode: 'I0002' }, provider);
    expect(seen.data.rows.map((r: { plancode: string }) => r.plancode)).toContain(hp);
    expect((await s.call('as.m.exam.plan.getPlanFormDetails', { plancode: hp }, provider)).data[0].formcode).toBe('TPH');
  });
});

describe.each(engines())('demo assessment data on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.close());

  it('has stages for all four populations and plans authorised to the demo institutions', async () => {
    const provider = (await s.login('provider')).token;
    const groups = await s.call('as.m.app.exam.getExamStageListGroupByAppidCategoryid', {}, provider);
    expect([...new Set(groups.data.map((g: { appid: string }) => g.appid))]).toEqual(['000000001', '000000002', '000000003', '000000004']);
    const maternity = groups.data.filter((g: { appid: string }) => g.appid === '000000001').flatMap((g: { stages: { stagename: string }[] }) => g.stages.map((x) => x.stagename));
    expect(maternity).toEqual(['孕早期（<14周）', '孕中期（14-28周）', '孕晚期（≥28周）', '产后42天']);
    const auths = await s.call('as.m.exam.plan.getPlanAuthorizeList', { pageSize: 50 }, provider);
    expect(auths.data.rows.map((r: { plancode: string; musercode: string; status: string }) => `${r.plancode}>${r.musercode}`).sort()).toEqual(['PL-E1>I0003', 'PL-M1>I0002']);
    // The stage forms are built-in scales and score.
    const forms = await s.call('as.m.app.exam.getExamStageForms', { stagecode: 'ST-M4' }, provider);
    expect(forms.data.map((f: { formcode: string; builtin: boolean }) => `${f.formcode}:${f.builtin}`)).toEqual(['PHQ9:true', 'GAD7:true']);
    const school = (await s.login('school')).token;
    expect((await s.call('as.m.exam.plan.getPlanFormDetails', { plancode: 'PL-S1' }, school)).data.map((f: { formcode: string }) => f.formcode)).toEqual(['PHQA', 'GAD7', 'PHQA', 'GAD7']);
  });

  it('gives respondents only forms whose item text ships (issue 28: the EPDS without its text was in the hospital’s plan)', async () => {
    const provider = (await s.login('provider')).token;
    const school = (await s.login('school')).token;
    for (const [plancode, token] of [['PL-M1', provider], ['PL-E1', provider], ['PL-W1', provider], ['PL-S1', school]] as const) {
      const forms = await s.call('as.m.exam.plan.getPlanForm', { plancode }, token);
      expect(forms.errorCode, forms.errorMsg).toBe(0);
      expect(forms.data.filter((f: { textless: boolean }) => f.textless !== false).map((f: { formcode: string }) => f.formcode), plancode).toEqual([]);
    }
    const stages = await s.call('as.m.app.exam.getExamStageList', { pageSize: 100 }, provider);
    for (const st of stages.data.rows as { stagecode: string }[]) {
      const forms = await s.call('as.m.app.exam.getExamStageForms', { stagecode: st.stagecode }, provider);
      expect(forms.data.filter((f: { textless: boolean }) => f.textless !== false).map((f: { formcode: string }) => f.formcode), st.stagecode).toEqual([]);
    }
  });
});
