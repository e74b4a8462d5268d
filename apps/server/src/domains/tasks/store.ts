/**
 * What other domains (and this one's handlers) may know of teams and tasks, through functions
 * (DESIGN §4): the respondent sign-in, progress and the group report call these, never the tables.
 */
import { and, asc, count, desc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { ASSESS_CODE_ALPHABET, INSTITUTION_TIME_ZONE, TASK_CODE_LENGTH, timeInZone } from '@xinli/contract';
import { randomInt } from 'node:crypto';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { notFound, type Message } from '../../http/errors.js';
import { preparedForKeys, preparedOnce, referenceRead, type Bindable } from '../../kit/index.js';
import { scopeWhere } from '../auth/index.js';
import { task, taskPerson, taskTeam, team, teamMember } from './tables.js';

export type TeamRecord = typeof team.$inferSelect;
export type TaskRecord = typeof task.$inferSelect;
export type TaskStatus = 'pending' | 'running' | 'ended';

/** The display name of a team: school grade class, or the department. */
export const teamName = (t: Pick<TeamRecord, 'kind' | 'school' | 'grade' | 'classname' | 'deptname'>) =>
  t.kind === 'dept' ? t.deptname : [t.school, t.grade, t.classname].filter(Boolean).join(' ');

/** A living team the caller may see; another institution's is "not found". */
export async function teamInScope(ctx: Ctx, db: DbOrTx, teamid: string): Promise<TeamRecord> {
  const [row] = await db
    .select()
    .from(team)
    .where(and(eq(team.teamid, teamid), isNull(team.deletedat), scopeWhere(team.musercode, ctx.me)));
  return row ?? notFound({ zh: '团体不存在', en: 'No such team' });
}

/** A task the caller may see; another institution's is "not found". */
export async function taskInScope(ctx: Ctx, db: DbOrTx, taskid: string): Promise<TaskRecord> {
  const [row] = await db
    .select()
    .from(task)
    .where(and(eq(task.taskid, taskid), scopeWhere(task.musercode, ctx.me)));
  return row ?? notFound({ zh: '测评任务不存在', en: 'No such task' });
}

/** pending before startat, running until endat, then ended. */
export function taskStatusAt(t: Pick<TaskRecord, 'startat' | 'endat'>, now: Date): TaskStatus {
  if (now < t.startat) return 'pending';
  return now < t.endat ? 'running' : 'ended';
}

/** A moment as a respondent reads it: China time to the minute (2026-11-21 16:00). */
const chinaTime = (d: Date) => timeInZone(d, INSTITUTION_TIME_ZONE);

/**
 * Why a task takes no respondent at `now` (before its start, after its end), or null while it
 * runs: one sentence for the task sign-in and every step of a code the task gave (issue 27 §6).
 */
export function taskClosedMessage(t: Pick<TaskRecord, 'taskname' | 'startat' | 'endat'>, now: Date): Message | null {
  const status = taskStatusAt(t, now);
  if (status === 'pending')
    return {
      zh: `测评任务「${t.taskname}」尚未开始，开始时间：${chinaTime(t.startat)}`,
      en: `The task “${t.taskname}” has not started yet; it starts at ${chinaTime(t.startat)} (UTC+8)`,
    };
  if (status === 'ended')
    return {
      zh: `测评任务「${t.taskname}」已于 ${chinaTime(t.endat)} 结束`,
      en: `The task “${t.taskname}” ended at ${chinaTime(t.endat)} (UTC+8)`,
    };
  return null;
}

/** The task that gave a personal code, or null (a code given one by one or through the QR link); kept (kit/reference-reads: every step of the code checks its window). */
export const taskOfCode = referenceRead(
  'task_of_code',
  (assesscode: string) => assesscode,
  async (db, assesscode: string): Promise<TaskRecord | null> => {
    const [row] = await taskOfCodeRead(db).execute({ assesscode });
    return row?.t ?? null;
  },
);
/** Prepared: every respondent step of a task's code checks its task's window. */
const taskOfCodeRead = preparedOnce('task_of_code', (db, name) =>
  db.select({ t: task }).from(taskPerson).innerJoin(task, eq(task.taskid, taskPerson.taskid)).where(eq(taskPerson.assesscode, sql.placeholder('assesscode'))).prepare(name),
);

/** Why the task that gave a personal code takes no step at `now`, or null (none gave it, or it is running): assessments' code window. */
export async function closedTaskWindow(db: DbOrTx, assesscode: string, now: Date): Promise<Message | null> {
  const t = await taskOfCode(db, assesscode);
  return t ? taskClosedMessage(t, now) : null;
}

/** The task a respondent's task code names (upper-cased, spaces and dashes dropped), or null; read once per class (kit/reference-reads). */
export const taskByCode = referenceRead(
  'task_by_code',
  (taskcode: string) => plainTaskCode(taskcode),
  async (db, taskcode: string): Promise<TaskRecord | null> => {
    const [row] = await taskOfTaskCode(db).execute({ code: plainTaskCode(taskcode) });
    return row ?? null;
  },
);
const plainTaskCode = (taskcode: string) => taskcode.replace(/[\s-]/g, '').toUpperCase();
const taskOfTaskCode = preparedOnce('task_by_code', (db, name) => db.select().from(task).where(eq(task.taskcode, sql.placeholder('code'))).prepare(name));

/** A new task code: TASK_CODE_LENGTH characters of the look-alike-free alphabet (~40 bits). */
export function newTaskCode(): string {
  let code = '';
  for (let i = 0; i < TASK_CODE_LENGTH; i++) code += ASSESS_CODE_ALPHABET[randomInt(ASSESS_CODE_ALPHABET.length)];
  return code;
}

export interface TaskPerson {
  cusercode: string;
  teamid: string;
  studentno: string;
  assesscode: string;
}

/** The persons given a task (of one team), by team and number. */
export async function taskPeople(db: DbOrTx, taskid: string, teamid?: string): Promise<TaskPerson[]> {
  return db
    .select({
      cusercode: taskPerson.cusercode,
      teamid: taskPerson.teamid,
      studentno: taskPerson.studentno,
      assesscode: taskPerson.assesscode,
    })
    .from(taskPerson)
    .where(and(eq(taskPerson.taskid, taskid), teamid ? eq(taskPerson.teamid, teamid) : undefined))
    .orderBy(asc(taskPerson.teamid), asc(taskPerson.studentno), asc(taskPerson.cusercode));
}

/** Teams by id, deleted ones included (ended tasks and statistics still name their classes). */
export async function teamRecords(db: DbOrTx, teamids: Iterable<string>): Promise<Map<string, TeamRecord>> {
  const ids = [...new Set(teamids)];
  if (!ids.length) return new Map();
  const rows = await db.select().from(team).where(inArray(team.teamid, ids));
  return new Map(rows.map((t) => [t.teamid, t]));
}

/**
 * Every class team (deleted ones included: past reports keep their class) as a subquery of its
 * identity, for a statement that groups per-team figures by grade or class (statistics) without
 * reading the teams row by row.
 */
export function classTeams(db: DbOrTx) {
  return db
    .select({ teamid: team.teamid, grade: team.grade, classname: team.classname })
    .from(team)
    .where(eq(team.kind, 'class'))
    .as('class_team');
}

/**
 * SQL: the code in `assesscode` was given through a class task to this class, or to a class of
 * this grade (the class of a report as the statistics group it: migration 0020 stats_refresh).
 */
export function givenToClass(assesscode: AnyPgColumn, c: { teamid?: Bindable<string>; grade?: Bindable<string> }): SQL {
  return sql`${assesscode} in (select ${taskPerson.assesscode} from ${taskPerson} join ${team} on ${and(
    eq(team.teamid, taskPerson.teamid),
    eq(team.kind, 'class'),
    c.teamid ? eq(team.teamid, c.teamid) : undefined,
    c.grade ? eq(team.grade, c.grade) : undefined,
  )})`;
}

/** Display names of teams (deleted ones included, so ended tasks still name their classes). */
export async function teamNames(db: DbOrTx, teamids: Iterable<string>): Promise<Map<string, string>> {
  const teams = await teamRecords(db, teamids);
  return new Map([...teams].map(([id, t]) => [id, teamName(t)]));
}

const byName = new Intl.Collator('zh-CN').compare;

/** The teams of a task with their names and whether their group report is hidden, by name. */
export async function taskTeams(db: DbOrTx, taskid: string): Promise<{ teamid: string; teamname: string; reporthidden: number }[]> {
  const rows = await db.select().from(taskTeam).where(eq(taskTeam.taskid, taskid));
  const names = await teamNames(
    db,
    rows.map((r) => r.teamid),
  );
  return rows
    .map((r) => ({ teamid: r.teamid, teamname: names.get(r.teamid) ?? '', reporthidden: r.reporthidden }))
    .sort((a, b) => byName(a.teamname, b.teamname) || a.teamid.localeCompare(b.teamid));
}

/** Tasks not yet ended per team (a team with one cannot be deleted). */
export async function openTaskCounts(db: DbOrTx, teamids: string[], now: Date): Promise<Map<string, number>> {
  if (!teamids.length) return new Map();
  const rows = await db
    .select({ teamid: taskTeam.teamid, n: count() })
    .from(taskTeam)
    .innerJoin(task, eq(task.taskid, taskTeam.taskid))
    .where(and(inArray(taskTeam.teamid, teamids), gt(task.endat, now)))
    .groupBy(taskTeam.teamid);
  return new Map(rows.map((r) => [r.teamid, Number(r.n)]));
}

/** A team filter of a task's lists: a team of that task, else "not found". */
export async function teamOfTask(db: DbOrTx, taskid: string, teamid: string): Promise<void> {
  const [row] = await db
    .select({ teamid: taskTeam.teamid })
    .from(taskTeam)
    .where(and(eq(taskTeam.taskid, taskid), eq(taskTeam.teamid, teamid)));
  if (!row) notFound({ zh: '该团体不在此任务中', en: 'This team is not in the task' });
}

/**
 * The grade of each person's newest living class team (the class they are in now), for the
 * consent of children under 14 (consent domain). Persons on no class are left out.
 */
export async function currentGradesOf(db: DbOrTx, cusercodes: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (cusercodes.length === 1) {
    const grade = await keptGrade(db, cusercodes[0]!);
    if (grade !== undefined) out.set(cusercodes[0]!, grade);
    return out;
  }
  for (let i = 0; i < cusercodes.length; i += 5000) {
    const rows = await gradesRead(db, cusercodes.slice(i, i + 5000));
    for (const r of rows) out.set(r.cusercode, r.grade);
  }
  return out;
}

/**
 * One person's grade is kept by the process (the consent of every step of a respondent without a
 * birth date reads it); undefined, on no class, is kept too: a class joined or left, or a class's
 * grade changed, is announced (migration 0052).
 */
const keptGrade = referenceRead(
  'current_grade',
  (cusercode: string) => cusercode,
  async (db, cusercode: string) => (await gradesRead(db, [cusercode]))[0]?.grade,
);

/** Prepared: the consent of every respondent step reads it. */
const gradesRead = preparedForKeys('current_grades', (db, name, keyIs) =>
  db
    .selectDistinctOn([teamMember.cusercode], { cusercode: teamMember.cusercode, grade: team.grade })
    .from(teamMember)
    .innerJoin(team, and(eq(team.teamid, teamMember.teamid), eq(team.kind, 'class'), isNull(team.deletedat)))
    .where(keyIs(teamMember.cusercode))
    .orderBy(teamMember.cusercode, desc(teamMember.joinedat), desc(team.createdat))
    .prepare(name),
);

/** A team's roster now: its members by number. */
export async function teamRoster(db: DbOrTx, teamid: string): Promise<{ cusercode: string; studentno: string }[]> {
  return db
    .select({ cusercode: teamMember.cusercode, studentno: teamMember.studentno })
    .from(teamMember)
    .where(eq(teamMember.teamid, teamid))
    .orderBy(asc(teamMember.studentno));
}
