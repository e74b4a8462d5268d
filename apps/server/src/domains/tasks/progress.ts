import { INSTITUTION_TIME_ZONE, timeInZone, type ConsentState } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { notFound } from '../../http/errors.js';
import { iso, pageOfArray, streamXlsx, todayIn, XLSX_TYPE } from '../../kit/index.js';
import { codeStates, progressOf, type Progress } from '../assessments/index.js';
import { consentStandings } from '../consent/index.js';
import { personBriefs } from '../persons/index.js';
import { taskInScope, taskPeople, taskStatusAt, taskTeams } from './store.js';

/**
 * Progress of a task (issue 14): per task, per team and per person, not started / in progress /
 * finished. A person's progress is the state of the personal code the task gave them (issued,
 * started, finished: finished once every form of the plan is submitted), read at the moment of
 * asking, so the counts are those of the stored reports. The console's progress page refetches
 * them every few seconds while the task runs (no manual refresh).
 */
type TeamBrief = Awaited<ReturnType<typeof taskTeams>>[number];

/** The task's teams by name, classes in number order (2班 before 10班). */
async function teamsOf(ctx: Ctx, taskid: string): Promise<TeamBrief[]> {
  return (await taskTeams(ctx.db, taskid)).sort((a, b) => a.teamname.localeCompare(b.teamname, 'zh-CN', { numeric: true }) || a.teamid.localeCompare(b.teamid));
}

export interface PersonProgress {
  cusercode: string;
  teamid: string;
  teamname: string;
  studentno: string;
  realname: string;
  gender: string;
  status: Progress;
  startedat: string | null;
  finishedat: string | null;
  /** Consent state (issue 30 §4): guardianmissing and withdrawn cannot answer. */
  consent: ConsentState;
}

/** Every person of a task with their progress, by team (in the task's team order) and number. */
async function personsOf(ctx: Ctx, t: { taskid: string; musercode: string }, teams: TeamBrief[], teamid?: string): Promise<PersonProgress[]> {
  const rows = await taskPeople(ctx.db, t.taskid, teamid);
  const [states, people, consents] = await Promise.all([
    codeStates(ctx.db, rows.map((r) => r.assesscode)),
    personBriefs(ctx.db, rows.map((r) => r.cusercode), ctx.lang),
    consentStandings(ctx.db, t.musercode, rows.map((r) => r.cusercode), ctx.now()),
  ]);
  const order = new Map(teams.map((t, i) => [t.teamid, i]));
  const names = new Map(teams.map((t) => [t.teamid, t.teamname]));
  return rows
    .map((r) => {
      const s = states.get(r.assesscode);
      const p = people.get(r.cusercode);
      return {
        cusercode: r.cusercode,
        teamid: r.teamid,
        teamname: names.get(r.teamid) ?? '',
        studentno: r.studentno,
        realname: p?.realname ?? '',
        gender: p?.gender ?? '',
        status: s ? progressOf(s.status) : 'notstarted',
        startedat: s?.startedat ? iso(s.startedat) : null,
        finishedat: s?.finishedat ? iso(s.finishedat) : null,
        consent: consents.get(r.cusercode)?.state ?? 'pending',
      };
    })
    .sort((a, b) => (order.get(a.teamid) ?? 1e9) - (order.get(b.teamid) ?? 1e9) || a.studentno.localeCompare(b.studentno, 'en', { numeric: true }));
}

/** Who cannot answer for want of consent: under 14 without a guardian's consent, or withdrawn. */
const missesConsent = (p: PersonProgress) => p.consent === 'guardianmissing' || p.consent === 'withdrawn';

const countsOf = (list: PersonProgress[]) => {
  const c = { total: list.length, notstarted: 0, inprogress: 0, finished: 0, consentmissing: 0 };
  for (const p of list) {
    c[p.status]++;
    if (missesConsent(p)) c.consentmissing++;
  }
  return c;
};

interface ProgressFilter {
  taskid: string;
  teamid?: string;
  /** unfinished: not started or in progress (the head teachers' list). */
  status?: Progress | 'unfinished' | '';
  realname?: string;
}

/** The persons a roster-progress filter selects (the team must be one of the task's). */
async function filtered(ctx: Ctx, f: ProgressFilter) {
  const t = await taskInScope(ctx, ctx.db, f.taskid);
  const teams = await teamsOf(ctx, t.taskid);
  if (f.teamid && !teams.some((x) => x.teamid === f.teamid)) notFound({ zh: '该团体不在此任务中', en: 'This team is not part of the task' });
  const name = f.realname?.toLowerCase();
  const persons = (await personsOf(ctx, t, teams, f.teamid)).filter(
    (p) => (!f.status || p.status === f.status || (f.status === 'unfinished' && p.status !== 'finished')) && (!name || p.realname.toLowerCase().includes(name)),
  );
  return { task: t, persons };
}

const STATE_TEXT: Record<Progress | 'unfinished', { zh: string; en: string }> = {
  unfinished: { zh: '未完成', en: 'Not finished' },
  notstarted: { zh: '未开始', en: 'Not started' },
  inprogress: { zh: '进行中', en: 'In progress' },
  finished: { zh: '已完成', en: 'Finished' },
};
const CONSENT_TEXT: Record<ConsentState, { zh: string; en: string }> = {
  given: { zh: '已同意', en: 'Given' },
  pending: { zh: '待本人同意', en: 'Not yet asked' },
  guardianmissing: { zh: '缺监护人同意', en: 'Guardian consent missing' },
  withdrawn: { zh: '已撤回', en: 'Withdrawn' },
};
const localTime = (at: string | null) => (at ? timeInZone(at, INSTITUTION_TIME_ZONE) : '');

export const progressHandlers = {
  'as.m.assess.getAssessTaskProgress': async ({ taskid }, ctx) => {
    const t = await taskInScope(ctx, ctx.db, taskid);
    const teams = await teamsOf(ctx, t.taskid);
    const persons = await personsOf(ctx, t, teams);
    return {
      taskid: t.taskid,
      status: taskStatusAt(t, ctx.now()),
      ...countsOf(persons),
      teams: teams.map((x) => ({ teamid: x.teamid, teamname: x.teamname, ...countsOf(persons.filter((p) => p.teamid === x.teamid)) })),
    };
  },

  'as.m.assess.getAssessTaskRosterProgress': async ({ page, pageSize, ...f }, ctx) => {
    const { persons } = await filtered(ctx, f);
    const { total, rows } = pageOfArray(persons, { page, pageSize });
    return { total, rows: rows.map(({ gender: _gender, ...r }) => r) };
  },

  'as.m.assess.exportAssessTaskRosterProgress': async (f, ctx) => {
    const { task: t, persons } = await filtered(ctx, f);
    const en = ctx.lang === 'en-US';
    await ctx.audit({ result: 'ok', detail: { ...f, rows: persons.length } });
    const head = en
      ? ['Team', 'Number', 'Name', 'Progress', 'Started (UTC+8)', 'Finished (UTC+8)', 'Consent']
      : ['班级/团体', '学号', '姓名', '进度', '开始时间', '完成时间', '同意'];
    const body = streamXlsx(
      en ? 'Progress' : '测评进度',
      head,
      async (add) => {
        for (let i = 0; i < persons.length; i += 500)
          await add(persons.slice(i, i + 500).map((p) => [p.teamname, p.studentno, p.realname, en ? STATE_TEXT[p.status].en : STATE_TEXT[p.status].zh, localTime(p.startedat), localTime(p.finishedat), en ? CONSENT_TEXT[p.consent].en : CONSENT_TEXT[p.consent].zh]));
      },
      [28, 14, 14, 10, 18, 18, 16],
    );
    const what = f.status ? (en ? STATE_TEXT[f.status].en : STATE_TEXT[f.status].zh) : en ? 'progress' : '进度';
    return { filename: `${t.taskname}-${what}-${todayIn(ctx.now())}.xlsx`, contentType: XLSX_TYPE, body };
  },
} satisfies HandlerMap;
