import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { app } from '../apps/tables.js';
import { assessCode } from '../assessments/tables.js';
import { plan } from '../plans/tables.js';
import { cuser } from '../persons/tables.js';

/**
 * A team (团体): a class of a school or a department of an employer. Deleting one keeps the row
 * (deletedat) so ended tasks keep naming the class; only living teams are unique.
 */
export const team = pgTable(
  'team',
  {
    teamid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    /** class | dept */
    kind: text().notNull(),
    /** The app the roster's persons belong to (students for classes, working adults for departments). */
    appid: text()
      .notNull()
      .references(() => app.appid),
    school: text().notNull().default(''),
    year: text().notNull().default(''),
    term: text().notNull().default(''),
    grade: text().notNull().default(''),
    classname: text().notNull().default(''),
    deptname: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedat: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('team_kind_check', sql`${t.kind} in ('class', 'dept')`),
    uniqueIndex('team_unique_idx')
      .on(t.musercode, t.kind, t.school, t.year, t.term, t.grade, t.classname, t.deptname)
      .where(sql`${t.deletedat} is null`),
  ],
);

/** A team's roster: one row per person, with a number unique in the team. */
export const teamMember = pgTable(
  'team_member',
  {
    teamid: text()
      .notNull()
      .references(() => team.teamid, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    studentno: text().notNull(),
    joinedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamid, t.cusercode] }),
    uniqueIndex('team_member_no_idx').on(t.teamid, t.studentno),
    index('team_member_person_idx').on(t.cusercode),
  ],
);

/** A task: one plan for some teams between startat and endat; respondents enter with taskcode. */
export const task = pgTable(
  'task',
  {
    taskid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    taskname: text().notNull(),
    plancode: text()
      .notNull()
      .references(() => plan.plancode),
    /** What respondents type with their number and name (unique over all institutions). */
    taskcode: text().notNull(),
    startat: timestamp({ withTimezone: true }).notNull(),
    endat: timestamp({ withTimezone: true }).notNull(),
    createdby: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * 1: the task sign-in also asks for the student's PIN printed on their slip (issue 27: a
     * classmate who knows a number and name cannot answer for them). Off by default.
     */
    pinrequired: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('task_code_idx').on(t.taskcode),
    index('task_muser_idx').on(t.musercode, t.startat),
    check('task_window_check', sql`${t.startat} < ${t.endat}`),
    check('task_pinrequired_check', sql`${t.pinrequired} in (0, 1)`),
  ],
);

/** The teams of a task; reporthidden: the group report of that team is hidden (showOrHiddenTeamReport). */
export const taskTeam = pgTable(
  'task_team',
  {
    taskid: text()
      .notNull()
      .references(() => task.taskid, { onDelete: 'cascade' }),
    teamid: text()
      .notNull()
      .references(() => team.teamid),
    reporthidden: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.taskid, t.teamid] }), index('task_team_team_idx').on(t.teamid)],
);

/**
 * A person given the task: one personal code (assess_code) per person and task, issued for the
 * team the person was on (studentno as it was then). Progress is the state of that code.
 */
export const taskPerson = pgTable(
  'task_person',
  {
    taskid: text()
      .notNull()
      .references(() => task.taskid, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    teamid: text()
      .notNull()
      .references(() => team.teamid),
    studentno: text().notNull(),
    assesscode: text()
      .notNull()
      .references(() => assessCode.assesscode, { onDelete: 'cascade' }),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * The person's sign-in PIN as `salt:sha256(salt + pin)` (hex), null until their slip is
     * printed; printing again draws a new one (only the slip ever shows it).
     */
    pinhash: text(),
    /** Wrong PINs since the last right one or the last print; at the limit the PIN is locked. */
    pinfailures: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.taskid, t.cusercode] }),
    uniqueIndex('task_person_code_idx').on(t.assesscode),
    index('task_person_team_idx').on(t.taskid, t.teamid, t.studentno),
  ],
);
