import { catalogue, type ActionInput, type ActionName, type ActionOutput } from '@xinli/contract';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { createCtx, type Caller, type RespondentCaller } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { DEMO_SIGNATURE, markConsentSheet } from '../consent/index.js';
import { personBriefs } from '../persons/index.js';
import { writeAudit } from '../audit/index.js';
import { screeningSeverity, seededRandom, severitySheet, loadCurrentDefinitions } from '../scales/index.js';

/**
 * Demo group assessment (issue 14) of the demo school I0001 滨江第一中学: two grades of three
 * classes (the school's 120 demo students, 20 a class), a finished task of 初二 (most answered,
 * a few absent) and a running task of every class (some finished, some half-way, the rest not
 * started). Everything goes through the product's actions: the teacher's (plan, teams, rosters,
 * tasks, personal codes) and the students' (task sign-in, progress save, submission, which scores
 * the sheet, stores the report and raises warnings). Answers follow a screening population
 * (scoring/sheets.ts screeningSeverity): a minority at risk, so the warnings pages and the group
 * report have a few people who need attention. Deterministic: a seeded
 * generator and the seeding clock, never the wall clock.
 */
const SCHOOL = 'I0001';
const FORMS = ['PHQA'];
const GRADES = [
  { grade: '初一', intake: '2026' },
  { grade: '初二', intake: '2025' },
];
const CLASS_SIZE = 20;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Act = <N extends ActionName>(name: N, input: ActionInput<N>, at: Date, respondent?: RespondentCaller) => Promise<ActionOutput<N>>;

/** Runs actions as the school's administrator (or a respondent) at a given instant of the seeding clock. */
function actor(db: Db, handlers: HandlerMap): Act {
  const config = loadConfig();
  const caller: Caller = {
    tokenhash: '',
    musercode: SCHOOL,
    userid: null,
    actor: null,
    actoruserid: null,
    musertype: '001',
    issuper: false,
    codes: new Set(['00040', '00041', '00042', '00043', '00001', '00002']),
    roles: [],
    scope: [SCHOOL],
  };
  return async (name, input, at, respondent) => {
    const ctx = createCtx({ db, config, now: () => at, lang: 'zh-CN', ip: '127.0.0.1', requestId: 'demo', action: name, caller: respondent ? null : caller, respondent: respondent ?? null, writeAudit });
    const handler = handlers[name] as unknown as (i: unknown, c: typeof ctx) => Promise<ActionOutput<typeof name>>;
    return handler(catalogue[name].input.parse(input), ctx);
  };
}

export async function seedDemoTasks(db: Db, now: Date, cusercodes: string[], handlers: HandlerMap) {
  const act = actor(db, handlers);
  const rand = seededRandom(20261414);
  const briefs = await personBriefs(db, cusercodes);
  const students = cusercodes.filter((c) => briefs.get(c)?.musercode === SCHOOL).slice(0, GRADES.length * 3 * CLASS_SIZE);
  const defs = await loadCurrentDefinitions(db, FORMS);
  const setUp = new Date(now.getTime() - 30 * DAY);

  const { plancode } = await act('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: '班级抑郁筛查（PHQ-A）', description: '团体测评用：青少年抑郁筛查', formcodes: FORMS }, setUp);
  const teams: { teamid: string; grade: string; members: { cusercode: string; studentno: string; realname: string }[] }[] = [];
  let next = 0;
  for (const { grade, intake } of GRADES)
    for (let c = 1; c <= 3; c++) {
      const classname = `${c}班`;
      const { teamid } = await act('as.m.assess.insertAssessTeam', { kind: 'class', school: '滨江第一中学', year: '2026', term: '第一学期', grade, classname, deptname: '' }, setUp);
      const members = [];
      for (let n = 1; n <= CLASS_SIZE && next < students.length; n++) {
        const cusercode = students[next++]!;
        const studentno = `${intake}${String(c).padStart(2, '0')}${String(n).padStart(2, '0')}`;
        await act('as.m.assess.insertAssessTeamCUser', { teamid, studentno, cusercode }, setUp);
        members.push({ cusercode, studentno, realname: briefs.get(cusercode)!.realname });
      }
      teams.push({ teamid, grade, members });
      // The class's guardians' consent (issue 30 §4): the teacher marks the returned paper forms on
      // the class's consent sheet and uploads it; the last two forms of each class are not back.
      const sheet = await act('as.m.consent.getConsentSheet', { teamid }, setUp);
      const unmarked = new Set(members.slice(-2).map((m) => m.studentno));
      const content = await markConsentSheet((sheet as { body: Buffer }).body, unmarked);
      await act('as.m.consent.importConsentSheet', { teamid, filename: `${grade}${classname}监护人同意.xlsx`, content }, setUp);
    }

  /**
   * The student's consent step, as on the phone: a guardian whose paper form was not back consents
   * on the phone when the pupil answers (a parent at home), and the student
   * agrees to the school's notice.
   */
  const consent = async (privacy: ActionOutput<'as.c.task.login'>['privacy'], cusercode: string, at: Date, me: RespondentCaller) => {
    // The guardian's consent counts as agreeing to the notice version it was given for.
    if (privacy.minor && !privacy.guardian)
      await act('as.c.exam.giveGuardianConsent', { version: privacy.version, guardianname: `${briefs.get(cusercode)!.realname.slice(0, 1)}家长`, relation: 'mother', signature: DEMO_SIGNATURE }, at, me);
    else if (!privacy.agreed) await act('as.c.exam.agreeNotice', { version: privacy.version }, at, me);
  };

  /** A task for some classes; `answer` says, per student, how many forms they submitted (the next one is half-way) and when, or null: not started. */
  const runTask = async (taskname: string, chosen: typeof teams, startat: Date, endat: Date, answer: () => { forms: number; at: Date } | null) => {
    const { taskid, taskcode } = await act('as.m.assess.insertAssessTask', { taskname, plancode, teamids: chosen.map((t) => t.teamid), startat: startat.toISOString(), endat: endat.toISOString() }, new Date(startat.getTime() - DAY));
    await act('as.m.assess.insertAssessTeamRosterTask', { taskid }, new Date(startat.getTime() - DAY));
    for (const team of chosen)
      for (const m of team.members) {
        const risk = rand();
        const plan = answer();
        if (!plan) continue;
        const session = await act('as.c.task.login', { taskcode, studentno: m.studentno, realname: m.realname }, plan.at);
        const me = { assesscode: session.assesscode, musercode: SCHOOL, cusercode: m.cusercode };
        await consent(session.privacy, m.cusercode, plan.at, me);
        for (const [k, formcode] of FORMS.entries()) {
          const at = new Date(plan.at.getTime() + (k + 1) * 4 * 60_000);
          const { answers } = severitySheet(defs.get(formcode)!, screeningSeverity(risk, rand), rand);
          if (k < plan.forms) await act('as.c.exam.submit', { formcode, answers }, at, me);
          else if (k === plan.forms) await act('as.c.exam.saveProgress', { formcode, answers: answers.slice(0, 3) }, at, me);
        }
      }
    return taskid;
  };

  // Three weeks ago, 初二: everyone but about one in twenty answered, in class time on the first two days.
  const begun = new Date(now.getTime() - 21 * DAY);
  await runTask('初二年级秋季心理普查', teams.filter((t) => t.grade === '初二'), begun, new Date(begun.getTime() + 7 * DAY), () =>
    rand() < 0.05 ? null : { forms: FORMS.length, at: new Date(begun.getTime() + Math.floor(rand() * 2) * DAY + HOUR + Math.floor(rand() * 6 * HOUR)) },
  );
  // Now, every class: answering began three hours ago and runs for a week. Its answers are 80 to
  // 180 minutes old, so the escalation clocks of their critical cases (60 minutes by default) have
  // run out by the time the console opens, as in the demo reports.
  const started = new Date(now.getTime() - 3 * HOUR);
  await runTask('全校期中情绪自评', teams, started, new Date(started.getTime() + 7 * DAY), () => {
    const r = rand();
    const at = new Date(started.getTime() + Math.floor(rand() * 100) * 60_000);
    return r < 0.4 ? { forms: FORMS.length, at } : r < 0.55 ? { forms: 0, at } : null;
  });
}
