import { and, asc, desc, eq, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import { compareGrades, type GroupCompareRow, type GroupIndicator, type GroupParticipation, type GroupReport, type Lang } from '@xinli/contract';
import type { DbOrTx } from '../../../db/database.js';
import type { Ctx } from '../../../http/context.js';
import { notFound } from '../../../http/errors.js';
import { iso, maskName } from '../../../kit/index.js';
import { accountNames } from '../../accounts/index.js';
import { cohortCodeStates } from '../../assessments/index.js';
import { personBriefs } from '../../persons/index.js';
import { cohortAttention, cohortIndicatorLevels, cohortWorstLevels, type GroupWorst } from '../../reports/index.js';
import { formBriefs, loadCurrentDefinitions, normsOfForms } from '../../scales/index.js';
import { latestCases } from '../../warnings/index.js';
import { taskInScope, teamName, type TaskRecord } from '../store.js';
import { task, taskPerson, taskTeam, team } from '../tables.js';

/**
 * The group report's figures (as.m.assess.getGroupReport, the written summary and the printed
 * document): every count is aggregated in SQL over the task's persons (task_person) and the
 * reports of their personal codes; names are masked.
 */

/** Level at or above which (or with a warning) a person is listed as needing attention. */
export const ATTENTION_LEVEL = 3;
export const ATTENTION_MAX = 200;

export interface TaskTeam {
  teamid: string;
  teamname: string;
  grade: string;
  kind: string;
  reporthidden: number;
}
export interface GroupTarget {
  task: TaskRecord;
  /** All the task's teams, and the chosen one (null: the whole task). */
  teams: TaskTeam[];
  teamid: string | null;
}

const NO_TEAM = { zh: '该任务没有这个团体', en: 'The task has no such team' };

/** The task's teams, named, in name order (code points: 一 before 二, as a timetable reads). */
async function teamsOf(db: DbOrTx, taskid: string): Promise<TaskTeam[]> {
  const rows = await db.select({ t: team, reporthidden: taskTeam.reporthidden }).from(taskTeam).innerJoin(team, eq(team.teamid, taskTeam.teamid)).where(eq(taskTeam.taskid, taskid));
  return rows
    .map(({ t, reporthidden }) => ({ teamid: t.teamid, teamname: teamName(t), grade: t.kind === 'class' ? t.grade : '', kind: t.kind, reporthidden }))
    .sort((a, b) => (a.teamname < b.teamname ? -1 : a.teamname > b.teamname ? 1 : a.teamid < b.teamid ? -1 : 1));
}

/** The task (in the caller's scope) and the team (one of the task's), else "not found". */
export async function groupTarget(ctx: Ctx, db: DbOrTx, taskid: string, teamid?: string): Promise<GroupTarget> {
  return targetOf(db, await taskInScope(ctx, db, taskid), teamid ?? null);
}

/** The target of a task already found (the summary job, which runs without a caller). */
export async function targetOf(db: DbOrTx, row: TaskRecord, teamid: string | null): Promise<GroupTarget> {
  const teams = await teamsOf(db, row.taskid);
  if (teamid && !teams.some((t) => t.teamid === teamid)) notFound(NO_TEAM);
  return { task: row, teams, teamid };
}

/** The cohort of a task: its persons' codes, grouped by team. */
const cohortOf = (taskid: string, teamids: string[]): SQL =>
  sql`select ${taskPerson.assesscode} as assesscode, ${taskPerson.teamid} as grp from ${taskPerson} where ${and(
    eq(taskPerson.taskid, taskid),
    inArray(taskPerson.teamid, teamids),
  )}`;

const rate = (finished: number, members: number) => (members ? Math.round((finished * 1000) / members) / 10 : 0);

function participationOf(states: { status: string; n: number }[]): GroupParticipation {
  const n = (s: string) => states.filter((x) => x.status === s).reduce((sum, x) => sum + x.n, 0);
  const members = states.reduce((sum, x) => sum + x.n, 0);
  return { members, finished: n('finished'), started: n('started'), notstarted: n('issued'), rate: rate(n('finished'), members) };
}

const pick = (lang: Lang, t: { zh: string; en: string }) => (lang === 'en-US' && t.en ? t.en : t.zh);

/** The group's mean against the form's default norm: z of the mean in norm SD units (two decimals), T = 50 + 10z (one). */
function groupAgainstNorm(
  mean: number,
  scale: { mean: number; sd: number },
  n: { name: string; population: string; samplesize: number; year: number; source: string },
): NonNullable<GroupIndicator['norm']> {
  const z = (mean - scale.mean) / scale.sd;
  return {
    mean: scale.mean,
    sd: scale.sd,
    z: Math.round(z * 100) / 100,
    t: Math.round((50 + 10 * z) * 10) / 10,
    name: n.name,
    population: n.population,
    samplesize: n.samplesize,
    year: n.year,
    source: n.source,
  };
}

/** Per indicator of the cohort's reports: persons per level and the mean score, in form and definition order. */
async function indicatorsOf(db: DbOrTx, cohort: SQL, lang: Lang): Promise<GroupIndicator[]> {
  const counts = await cohortIndicatorLevels(db, cohort);
  const formcodes = [...new Set(counts.map((c) => c.formcode))].sort();
  const [defs, forms, norms] = await Promise.all([loadCurrentDefinitions(db, formcodes), formBriefs(db, formcodes, lang), normsOfForms(db, formcodes, lang)]);
  const out: GroupIndicator[] = [];
  for (const formcode of formcodes) {
    const mine = counts.filter((c) => c.formcode === formcode);
    const order = defs.get(formcode)?.indicators ?? [];
    const codes = [...new Set([...order.map((i) => i.code), ...mine.map((c) => c.code)])].filter((c) => mine.some((m) => m.code === c));
    for (const code of codes) {
      const rows = mine.filter((c) => c.code === code);
      const def = order.find((i) => i.code === code);
      const total = rows.reduce((s, r) => s + r.n, 0);
      const levels = [0, 1, 2, 3, 4].map((l) => rows.filter((r) => r.level === l).reduce((s, r) => s + r.n, 0));
      const mean = total ? Math.round((rows.reduce((s, r) => s + r.sum, 0) * 100) / total) / 100 : 0;
      const n = norms.get(formcode);
      const scale = n?.scales.find((x) => x.code === code);
      out.push({
        formcode,
        formname: forms.get(formcode)?.formname ?? formcode,
        code,
        name: def ? pick(lang, def.name) : code,
        kind: def?.kind ?? 'factor',
        total,
        levels,
        mean,
        norm: n && scale && total ? groupAgainstNorm(mean, scale, n) : null,
      });
    }
  }
  return out;
}

/** Classes (teams) compared, and grades (the sum of their classes). */
function comparisonOf(
  states: { grp: string; status: string; n: number }[],
  worst: GroupWorst[],
  teams: TaskTeam[],
): { byteam: GroupCompareRow[]; bygrade: GroupCompareRow[] } {
  const row = (key: string, name: string, grps: string[]): GroupCompareRow => {
    const p = participationOf(states.filter((s) => grps.includes(s.grp)));
    const w = worst.filter((x) => grps.includes(x.grp));
    return {
      key,
      name,
      members: p.members,
      finished: p.finished,
      rate: p.rate,
      levels: [0, 1, 2, 3, 4].map((l) => w.filter((x) => x.worst === l).reduce((s, x) => s + x.n, 0)),
      warned: w.reduce((s, x) => s + x.warned, 0),
    };
  };
  const grades = [...new Set(teams.filter((t) => t.grade).map((t) => t.grade))].sort(compareGrades);
  return {
    byteam: teams.map((t) => row(t.teamid, t.teamname, [t.teamid])),
    bygrade: grades.map((g) => row(g, g, teams.filter((t) => t.grade === g).map((t) => t.teamid))),
  };
}

/** The latest earlier task of the same institution sharing one of the teams. */
async function previousTask(db: DbOrTx, current: TaskRecord, teamids: string[]): Promise<TaskRecord | null> {
  const [row] = await db
    .selectDistinct({ t: task })
    .from(task)
    .innerJoin(taskTeam, eq(taskTeam.taskid, task.taskid))
    .where(
      and(eq(task.musercode, current.musercode), ne(task.taskid, current.taskid), lt(task.startat, current.startat), inArray(taskTeam.teamid, teamids)),
    )
    .orderBy(desc(task.startat), asc(task.taskid))
    .limit(1);
  return row?.t ?? null;
}

/** The whole group report of a target, in a language. */
export async function buildGroupReport(db: DbOrTx, target: GroupTarget, lang: Lang): Promise<GroupReport> {
  const { task: t, teamid } = target;
  const teams = teamid ? target.teams.filter((x) => x.teamid === teamid) : target.teams;
  const teamids = teams.map((x) => x.teamid);
  const cohort = cohortOf(t.taskid, teamids);
  const [names, indicators, states, worst, attention, before] = await Promise.all([
    accountNames(db, [t.musercode]),
    indicatorsOf(db, cohort, lang),
    cohortCodeStates(db, cohort),
    cohortWorstLevels(db, cohort),
    cohortAttention(db, cohort, ATTENTION_LEVEL, ATTENTION_MAX),
    previousTask(db, t, teamids),
  ]);
  const [persons, cases, forms] = await Promise.all([
    personBriefs(
      db,
      attention.map((a) => a.cusercode),
      lang,
    ),
    latestCases(
      db,
      attention.map((a) => a.cusercode),
    ),
    formBriefs(db, [...new Set(attention.map((a) => a.formcode))], lang),
  ]);
  let previous: GroupReport['previous'] = null;
  if (before) {
    const prior = cohortOf(before.taskid, teamids);
    const [states, priorIndicators] = await Promise.all([cohortCodeStates(db, prior), indicatorsOf(db, prior, lang)]);
    previous = {
      taskid: before.taskid,
      taskname: before.taskname,
      endtime: iso(before.endat),
      participation: participationOf(states),
      indicators: priorIndicators,
    };
  }
  const teamName = new Map(target.teams.map((x) => [x.teamid, x.teamname]));
  return {
    task: {
      taskid: t.taskid,
      taskname: t.taskname,
      musercode: t.musercode,
      insname: names.get(t.musercode) ?? '',
      starttime: iso(t.startat),
      endtime: iso(t.endat),
    },
    teams: target.teams.map(({ teamid: id, teamname, grade, reporthidden }) => ({ teamid: id, teamname, grade, reporthidden })),
    teamid,
    participation: participationOf(states),
    indicators,
    ...comparisonOf(states, worst, teams),
    previous,
    attention: attention.map((a) => {
      const c = cases.get(a.cusercode);
      return {
        cusercode: a.cusercode,
        realname: maskName(persons.get(a.cusercode)?.realname),
        teamid: a.grp,
        teamname: teamName.get(a.grp) ?? '',
        reportid: a.reportid,
        formname: forms.get(a.formcode)?.formname ?? a.formcode,
        level: a.level,
        warning: a.warning,
        caseid: c?.caseid ?? null,
        casestate: c?.state ?? null,
        casekinds: c?.kinds ?? [],
      };
    }),
  };
}
