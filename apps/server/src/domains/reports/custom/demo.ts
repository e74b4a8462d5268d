import { catalogue, type ActionInput, type ActionName, type ActionOutput, type TemplateBody } from '@xinli/contract';
import { loadConfig } from '../../../config.js';
import type { Db } from '../../../db/database.js';
import { createCtx, type Caller, type RespondentCaller } from '../../../http/context.js';
import type { HandlerMap } from '../../../http/handlers.js';
import { writeAudit } from '../../audit/index.js';
import { DEMO_SIGNATURE } from '../../consent/index.js';
import { loadCurrentDefinitions, seededRandom, severitySheet } from '../../scales/index.js';

/**
 * The custom report in use (issue 31 §4): the Beijing maternity hospital I0008 朝阳妇产医院 runs
 * its psychology clinic's intake on a plan of app 000000005 whose reports follow its own template
 * (header, sections, band texts, a sign-off). Everything goes through the product's actions, as the
 * clinic's staff and its patients would: the plan, the template, the plan's choice of template,
 * the patients, their codes, consent and answers, and the reports printed. The first patients'
 * reports were printed with version 1; the template was then revised (version 2), and the later
 * patients' reports carry version 2 while the first ones keep version 1.
 */
const CLINIC = 'I0008';
const FORMS = ['PHQ9', 'GAD7'];
const DAY = 86_400_000;

type Act = <N extends ActionName>(name: N, input: ActionInput<N>, at: Date, respondent?: RespondentCaller) => Promise<ActionOutput<N>>;

function actor(db: Db, handlers: HandlerMap): Act {
  const config = loadConfig();
  const caller: Caller = {
    tokenhash: '',
    musercode: CLINIC,
    userid: null,
    actor: null,
    actoruserid: null,
    musertype: '002',
    issuper: false,
    codes: new Set(['00001', '00002', '001801', '001802', '0018021']),
    roles: [],
    scope: [CLINIC],
  };
  return async (name, input, at, respondent) => {
    const ctx = createCtx({ db, config, now: () => at, lang: 'zh-CN', ip: '127.0.0.1', requestId: 'demo', action: name, caller: respondent ? null : caller, respondent: respondent ?? null, writeAudit });
    const handler = handlers[name] as unknown as (i: unknown, c: typeof ctx) => Promise<ActionOutput<typeof name>>;
    return handler(catalogue[name].input.parse(input), ctx);
  };
}

export const DEMO_TEMPLATE: TemplateBody = {
  name: '心理门诊评估报告',
  title: '心理门诊评估报告',
  headername: '朝阳妇产医院 · 心理门诊',
  logofileid: null,
  formcodes: FORMS,
  sections: ['summary', 'indicators', 'norms', 'advice', 'trend', 'comments', 'signoff'],
  respondent: ['summary', 'indicators', 'bandtext'],
  bandtexts: [
    { indicator: 'TOTAL', level: 0, text: '本次评估未见明显情绪困扰，请保持规律作息，产检时可再次评估。' },
    { indicator: 'TOTAL', level: 2, text: '存在中度情绪困扰，门诊医生将在两周内电话随访，必要时转介心理科。' },
  ],
  signoff: '评估医生签名：＿＿＿＿＿＿（心理门诊）',
};

const PATIENTS = [
  { realname: '刘思雨', birthdate: '1994-05-12', severity: 'none' as const },
  { realname: '陈晓彤', birthdate: '1991-09-03', severity: 'moderate' as const },
  { realname: '赵一宁', birthdate: '1997-01-26', severity: 'mild' as const },
  { realname: '孙嘉怡', birthdate: '1989-11-08', severity: 'none' as const },
];

export async function seedDemoCustomReports(db: Db, now: Date, handlers: HandlerMap) {
  const act = actor(db, handlers);
  const rand = seededRandom(20261131);
  const defs = await loadCurrentDefinitions(db, FORMS);
  const setUp = new Date(now.getTime() - 40 * DAY);
  const { plancode } = await act('as.m.exam.plan.insertMUserExamPlan', { appid: '000000005', planname: '心理门诊初诊评估', description: '定制报告：门诊初诊的抑郁与焦虑筛查', formcodes: FORMS }, setUp);
  const { templateid } = await act('as.m.reportTemplate.insert', DEMO_TEMPLATE, setUp);
  await act('as.m.reportTemplate.setPlanTemplate', { plancode, templateid }, setUp);
  for (const [k, p] of PATIENTS.entries()) {
    const at = new Date(now.getTime() - (30 - k * 7) * DAY);
    // After the first two patients the clinic adds the answers to the report (version 2).
    if (k === 2) await act('as.m.reportTemplate.update', { templateid, ...DEMO_TEMPLATE, sections: [...DEMO_TEMPLATE.sections.slice(0, -1), 'answers', 'signoff'] }, at);
    const { cusercode } = await act('as.m.cuser.insertCUser', { appid: '000000005', realname: p.realname, gender: '02', birthdate: p.birthdate }, at);
    const { assesscode } = await act('as.m.user.insertCUserAssessCode', { cusercode, plancode }, at);
    const me = { assesscode, musercode: CLINIC, cusercode };
    const session = await act('as.c.exam.getSession', {}, at, me);
    if (!session.privacy.agreed) await act('as.c.exam.agreeNotice', { version: session.privacy.version }, at, me);
    if (!session.consent.signed) await act('as.c.exam.sign', { signature: DEMO_SIGNATURE }, at, me);
    for (const [n, formcode] of FORMS.entries()) {
      const { answers } = severitySheet(defs.get(formcode)!, p.severity, rand);
      const { reportid } = await act('as.c.exam.submit', { formcode, answers }, new Date(at.getTime() + (n + 1) * 5 * 60_000), me);
      // The clinic prints each report after the visit: it keeps the template version of that day.
      await act('as.m.exam.getReportDocument', { reportid }, new Date(at.getTime() + 3_600_000));
    }
  }
}
