import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, type FormDefinition } from '@xinli/contract';
import { engines, startTestServer, TEST_EPOCH, type TestServer } from '../../test/harness.js';
import { changedTables, fingerprint } from '../../test/sweep/fingerprint.js';
import { newAssessCode } from './codes.js';
import { assessCode } from './tables.js';
import { consented } from '../../test/consent.js';

/**
 * Issue 28: a form without its item text (a built-in instrument whose wording is not licensed,
 * e.g. the MHT or the EPDS: "第1题 / 选项1…4") never reaches a respondent. Every path that gives
 * a code or begins an assessment refuses it, naming the form and how to add the text; once staff
 * enter the licensed wording in the scale editor, the form can be given.
 */
const HOUR = 3_600_000;
const MHT_ZH = '心理健康诊断测验（MHT）';

describe.each(engines())('forms without their item text on %s', (engine) => {
  let s: TestServer;
  let school: string, provider: string;
  let goodStage: string, badStage: string, mixedPlan: string, goodPlan: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.28.0.${++ip}` });
  const person = async (realname: string) => {
    const res = await s.call('as.m.cuser.insertCUser', { appid: '000000002', realname, gender: '02' }, school);
    expect(res.errorCode, res.errorMsg).toBe(0);
    return res.data.cusercode as string;
  };
  /** A refusal naming the MHT in the caller's language, with the way out, and nothing written. */
  const expectRefused = async (run: () => Promise<{ errorCode: number; errorMsg: string }>, lang: 'zh' | 'en' = 'zh') => {
    const before = await fingerprint(s.database.db);
    const res = await run();
    expect(res.errorCode, res.errorMsg).toBe(ErrorCode.validation);
    if (lang === 'zh') expect(res.errorMsg).toMatch(new RegExp(`「${MHT_ZH.replace(/[()（）]/g, '.')}」.*没有题目原文.*量表编辑器.*题目为原文`));
    else expect(res.errorMsg).toMatch(/“Mental Health Test \(MHT\)” has no item text.*scale editor.*Items are the original wording/);
    expect(changedTables(before, await fingerprint(s.database.db))).toEqual([]);
  };
  const en = { 'accept-language': 'en-US' };

  beforeEach(async () => {
    [school, provider] = await Promise.all(['school', 'provider'].map(async (u) => (await s.login(u)).token));
  });
  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    const stage = async (stagename: string, formcodes: string[]) =>
      (await s.call('as.m.app.exam.insertExamStage', { appid: '000000002', categoryid: 'C0202', stagename, formcodes }, school)).data.stagecode as string;
    goodStage = await stage('情绪筛查', ['PHQA', 'GAD7']);
    badStage = await stage('心理健康诊断', ['MHT']);
    const plan = async (planname: string, stages: string[]) => {
      const res = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname, stages: stages.map((stagecode) => ({ stagecode })), formcodes: [] }, school);
      expect(res.errorCode, res.errorMsg).toBe(0);
      return res.data.plancode as string;
    };
    mixedPlan = await plan('含无原文量表的计划', [goodStage, badStage]);
    goodPlan = await plan('只含有原文量表的计划', [goodStage]);
  });
  afterAll(() => s?.close());

  it('marks such forms in the scale library and in a plan’s forms', async () => {
    const lib = await s.call('as.m.assess.forms.getFormPageList', { pageSize: 100 }, school);
    const textless = (lib.data.rows as { formcode: string; textless: boolean }[]).filter((r) => r.textless).map((r) => r.formcode).sort();
    expect(textless).toEqual(['EPDS', 'ISI', 'MHT', 'PSS10', 'SAS', 'SCL90', 'SDS', 'UCLA3']);
    const forms = await s.call('as.m.exam.plan.getPlanForm', { plancode: mixedPlan }, school);
    expect(forms.data.map((f: { formcode: string; textless: boolean }) => `${f.formcode}:${f.textless}`)).toEqual(['PHQA:false', 'GAD7:false', 'MHT:true']);
  });

  it('refuses giving the plan, or the stage holding the form, to one person (zh and en); the other stage can be given', async () => {
    const cusercode = await person('张一');
    await expectRefused(() => s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: mixedPlan }, school));
    await expectRefused(() => s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: mixedPlan }, school, en), 'en');
    await expectRefused(() => s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: mixedPlan, stagecode: badStage }, school));
    const ok = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: mixedPlan, stagecode: goodStage }, school);
    expect(ok.errorCode, ok.errorMsg).toBe(0);
  });

  it('refuses giving it to many persons at once (no code at all)', async () => {
    const cusercodes = [await person('张二'), await person('张三')];
    await expectRefused(() => s.call('as.m.user.insertCUserAssessCodes', { cusercodes, plancode: mixedPlan }, school));
    const good = await s.call('as.m.user.insertCUserAssessCodes', { cusercodes, plancode: goodPlan }, school);
    expect(good.errorCode, good.errorMsg).toBe(0);
    expect(good.data.codes).toHaveLength(2);
  });

  it('refuses it as a warning case’s rescreen', async () => {
    const cusercode = await person('张四');
    const flagged = await s.call('as.m.warning.flagPerson', { cusercode, level: 'critical', note: '班主任反映情绪低落' }, school);
    expect(flagged.errorCode, flagged.errorMsg).toBe(0);
    await expectRefused(() => s.call('as.m.warning.rescreenCase', { caseid: flagged.data.caseid, plancode: mixedPlan }, school));
  });

  it('refuses a group task of such a plan, and giving codes of a task whose plan took such a form since', async () => {
    const team = (await s.call('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江一中', year: '2026', term: '第一学期', grade: '初一', classname: '9班', deptname: '' }, school)).data.teamid as string;
    expect((await s.call('as.m.assess.insertAssessTeamCUser', { teamid: team, studentno: 'N01', realname: '李一', gender: '01' }, school)).errorCode).toBe(0);
    const window = { startat: new Date(TEST_EPOCH - HOUR).toISOString(), endat: new Date(TEST_EPOCH + HOUR).toISOString() };
    await expectRefused(() => s.call('as.m.assess.insertAssessTask', { taskname: '期中', plancode: mixedPlan, teamids: [team], ...window }, school));

    const editable = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '会改的计划', stages: [{ stagecode: goodStage }], formcodes: [] }, school);
    const made = await s.call('as.m.assess.insertAssessTask', { taskname: '期末', plancode: editable.data.plancode, teamids: [team], ...window }, school);
    expect(made.errorCode, made.errorMsg).toBe(0);
    expect((await s.call('as.m.exam.plan.updateMUserExamPlan', { plancode: editable.data.plancode, formcodes: ['MHT'] }, school)).errorCode).toBe(0);
    await expectRefused(() => s.call('as.m.assess.insertAssessTeamRosterTask', { taskid: made.data.taskid }, school));
    // Changing a task to such a plan is refused too.
    await expectRefused(() => s.call('as.m.assess.updateAssessTask', { taskid: made.data.taskid, plancode: mixedPlan }, school));
  });

  it('refuses goods that would give such a plan on purchase', async () => {
    const goods = { goodsname: '心理普查', price: 990, stock: 10, grantkind: 'plan', grantplancode: mixedPlan, grantcourseid: '' };
    const res = await s.call('as.m.goods.insertGoods', goods, school);
    expect(res.errorCode, res.errorMsg).toBe(ErrorCode.validation);
    expect(res.errorMsg).toContain(MHT_ZH);
  });

  it('a QR entry does not offer a stage holding it, and entering that stage registers nobody', async () => {
    const made = await s.call('as.m.user.createMUserClient', { musercode: 'I0001', title: '滨江一中心理测评', appids: ['000000002'], showresult: 1 }, provider);
    expect(made.errorCode, made.errorMsg).toBe(0);
    const entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
    const entry = await s.call('as.c.exam.getEntry', { entrytoken }, undefined, nextIp());
    const offered = entry.data.apps[0].stages.map((x: { stagecode: string }) => x.stagecode);
    expect(offered).toContain(goodStage);
    expect(offered).not.toContain(badStage);
    const before = await fingerprint(s.database.db);
    const res = await s.call('as.c.exam.enter', { entrytoken, appid: '000000002', stagecode: badStage, realname: '外人', gender: '02' }, undefined, nextIp());
    expect(res.errorCode).toBe(ErrorCode.notFound);
    expect(changedTables(before, await fingerprint(s.database.db)).filter((t) => t !== 'link_entry_attempt' && t !== 'code_entry')).toEqual([]);
  });

  it('the respondent start refuses a code that holds it (given before the rule), with a sentence for the respondent', async () => {
    const cusercode = await person('张五');
    const assesscode = newAssessCode();
    await s.database.db.insert(assessCode).values({ assesscode, musercode: 'I0001', cusercode, plancode: null, stagecode: badStage, authid: null, formcodes: ['MHT'], createdby: 'old', createdat: new Date(TEST_EPOCH) });
    const res = await s.call('as.c.exam.start', { assesscode }, undefined, nextIp());
    expect(res.errorCode).toBe(ErrorCode.validation);
    expect(res.errorMsg).toContain('缺少题目文字');
  });

  it('becomes givable once staff copy it and enter the licensed wording in the scale editor; taking the text out again stops it', async () => {
    const copied = await s.call('as.m.assess.forms.copyForm', { formcode: 'MHT', formname: '心理健康诊断测验（本校授权版）' }, school);
    expect(copied.errorCode, copied.errorMsg).toBe(0);
    const formcode: string = copied.data.formcode;
    const plan = await s.call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '授权版 MHT', formcodes: [formcode] }, school);
    const cusercode = await person('张六');
    // The copy is still without its text: refused, naming the copy.
    const refused = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan.data.plancode }, school);
    expect(refused.errorCode).toBe(ErrorCode.validation);
    expect(refused.errorMsg).toContain('心理健康诊断测验（本校授权版）');

    // The editor: every item and option worded, and "Items are the original wording" on.
    const got = await s.call('as.m.assess.forms.getForm', { formcode }, school);
    const def = got.data.definition as FormDefinition;
    const { formcode: _c, version: _v, ...body } = def;
    const worded = {
      ...body,
      fulltext: true,
      questions: def.questions.map((q) => ({ ...q, text: { zh: `授权题目${q.no}`, en: `Licensed item ${q.no}` }, options: q.options.map((o, i) => ({ ...o, text: { zh: `授权选项${i + 1}`, en: `Licensed option ${i + 1}` } })) })),
    };
    const saved = await s.call('as.m.assess.forms.updateForm', { formcode, revision: got.data.revision, definition: worded }, school);
    expect(saved.errorCode, saved.errorMsg).toBe(0);
    const lib = await s.call('as.m.assess.forms.getFormPageList', { formname: '本校授权版', pageSize: 10 }, school);
    expect(lib.data.rows[0]).toMatchObject({ formcode, textless: false });

    const given = await s.call('as.m.user.insertCUserAssessCode', { cusercode, plancode: plan.data.plancode }, school);
    expect(given.errorCode, given.errorMsg).toBe(0);
    const started = await s.call('as.c.exam.start', { assesscode: given.data.assesscode }, undefined, nextIp());
    await consented(s, started.data.token);
    expect(started.errorCode, started.errorMsg).toBe(0);
    const shown = await s.call('as.c.exam.getForm', { formcode }, started.data.token);
    expect(shown.errorCode, shown.errorMsg).toBe(0);
    expect(shown.data.questions[0].text.zh).toBe('授权题目1');

    // Switched back to placeholders while the code is open: the form is no longer shown.
    const again = await s.call('as.m.assess.forms.getForm', { formcode }, school);
    const { formcode: _c2, version: _v2, ...body2 } = again.data.definition as FormDefinition;
    expect((await s.call('as.m.assess.forms.updateForm', { formcode, revision: again.data.revision, definition: { ...body2, fulltext: false } }, school)).errorCode).toBe(0);
    const hidden = await s.call('as.c.exam.getForm', { formcode }, started.data.token);
    expect(hidden.errorCode).toBe(ErrorCode.validation);
    expect(hidden.errorMsg).toContain('缺少题目文字');
  });
});
