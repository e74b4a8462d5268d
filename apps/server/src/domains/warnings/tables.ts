import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { cuser } from '../persons/tables.js';
import { assessCode, assessment } from '../assessments/tables.js';

/**
 * A case (个案): the warnings of one person gathered while it is not closed. The partial unique
 * index keeps one case per person that is not closed, whatever races: a second warning joins it.
 * `escalatedue` is when an unacknowledged critical case goes to the administrators (null: no
 * escalation pending).
 */
export const warnCase = pgTable(
  'warn_case',
  {
    caseid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    /** The person's population app when the case opened (the list filters on it). */
    appid: text().notNull().default(''),
    /** open → acknowledged → followup → closed */
    state: text().notNull().default('open'),
    /** critical | attention: the highest of its warnings. */
    level: text().notNull(),
    /** A staff user (sysuser) of the institution, or ''. */
    assignee: text().notNull().default(''),
    outcome: text(),
    note: text().notNull().default(''),
    openedat: timestamp({ withTimezone: true }).notNull(),
    lastwarningat: timestamp({ withTimezone: true }).notNull(),
    acknowledgedat: timestamp({ withTimezone: true }),
    escalatedue: timestamp({ withTimezone: true }),
    escalatedat: timestamp({ withTimezone: true }),
    closedat: timestamp({ withTimezone: true }),
    /** The next follow-up date planned by the latest follow-up (China calendar date) or ''. */
    nextdate: text().notNull().default(''),
    /** The latest follow-up record (its next date is the case's). */
    lastfollowid: text().notNull().default(''),
  },
  (t) => [
    uniqueIndex('warn_case_one_open_idx')
      .on(t.cusercode)
      .where(sql`state <> 'closed'`),
    index('warn_case_muser_idx').on(t.musercode, t.state),
    index('warn_case_escalate_idx').on(t.escalatedue),
  ],
);

/**
 * A warning. The reason is a code with parameters (texts in both languages where a form gives
 * them), rendered in the reader's language. A missed-deadline warning names its given assessment,
 * and the partial unique index allows one per given assessment.
 */
export const warning = pgTable(
  'warning',
  {
    warningid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    caseid: text()
      .notNull()
      .references(() => warnCase.caseid, { onDelete: 'cascade' }),
    assessid: text().references(() => assessment.assessid, { onDelete: 'set null' }),
    assesscode: text().references(() => assessCode.assesscode, { onDelete: 'set null' }),
    /** critical_item | band | worsening | missed | manual */
    kind: text().notNull(),
    level: text().notNull(),
    reason: text().notNull(),
    params: jsonb().$type<Record<string, unknown>>().notNull(),
    formcode: text().notNull().default(''),
    stagecode: text().notNull().default(''),
    createdby: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('warning_case_idx').on(t.caseid),
    index('warning_muser_idx').on(t.musercode, t.createdat),
    index('warning_report_idx').on(t.assessid),
    uniqueIndex('warning_missed_once_idx')
      .on(t.assesscode)
      .where(sql`kind = 'missed'`),
  ],
);

/** Every change of a case: who, when, from → to, what and a note. */
export const caseEvent = pgTable(
  'case_event',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    caseid: text()
      .notNull()
      .references(() => warnCase.caseid, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true }).notNull(),
    /** userid of a staff user, else the account's musercode; 'system' for the sweeps. */
    by: text().notNull(),
    byname: text().notNull().default(''),
    fromstate: text().notNull().default(''),
    tostate: text().notNull(),
    what: text().notNull(),
    note: text().notNull().default(''),
  },
  (t) => [index('case_event_case_idx').on(t.caseid, t.at)],
);

/** A follow-up record on a case. */
export const followUp = pgTable(
  'follow_up',
  {
    followid: text().primaryKey(),
    caseid: text()
      .notNull()
      .references(() => warnCase.caseid, { onDelete: 'cascade' }),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    followdate: date({ mode: 'string' }).notNull(),
    way: text().notNull(),
    by: text().notNull(),
    byname: text().notNull().default(''),
    content: text().notNull(),
    risk: integer().notNull(),
    nextdate: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('follow_up_case_idx').on(t.caseid, t.createdat), index('follow_up_muser_idx').on(t.musercode, t.followdate)],
);

/** Trigger and escalation settings of an institution; absent: the defaults. */
export const warningSetting = pgTable('warning_setting', {
  musercode: text()
    .primaryKey()
    .references(() => muser.musercode, { onDelete: 'cascade' }),
  worsenpoints: integer().notNull(),
  worsenlevels: integer().notNull(),
  misseddays: integer().notNull(),
  escalateminutes: integer().notNull(),
  updatedat: timestamp({ withTimezone: true }).notNull(),
});

/**
 * A console notification of an institution: a new critical warning (for its staff holding the
 * warning code) or an escalation (for its administrators). One per critical warning, one
 * escalation per case.
 */
export const warnNotice = pgTable(
  'warn_notice',
  {
    noticeid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    caseid: text()
      .notNull()
      .references(() => warnCase.caseid, { onDelete: 'cascade' }),
    /** The critical warning it announces (null for an escalation). */
    warningid: text().references(() => warning.warningid, { onDelete: 'cascade' }),
    /** critical | escalated */
    kind: text().notNull(),
    level: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('warn_notice_warning_idx').on(t.warningid),
    uniqueIndex('warn_notice_escalated_idx')
      .on(t.caseid)
      .where(sql`kind = 'escalated'`),
    index('warn_notice_muser_idx').on(t.musercode, t.createdat),
  ],
);

/** Who has read a notice: the staff user id, or the account's musercode for the account itself. */
export const warnNoticeRead = pgTable(
  'warn_notice_read',
  {
    noticeid: text()
      .notNull()
      .references(() => warnNotice.noticeid, { onDelete: 'cascade' }),
    reader: text().notNull(),
    readat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.noticeid, t.reader] })],
);
