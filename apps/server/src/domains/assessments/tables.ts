import { sql } from 'drizzle-orm';
import { pgTable, text, integer, jsonb, timestamp, index, primaryKey, uniqueIndex, bigserial, boolean } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { form } from '../scales/tables.js';
import { plan, planAuthorize } from '../plans/tables.js';
import { cuser } from '../persons/tables.js';

/**
 * A given assessment: one person, one plan (or one stage of it), one one-time code. The code is
 * the primary key, so two codes can never be equal whatever races. `authid` names the plan
 * authorisation whose count it used (null for the institution's own plan), so withdrawing an
 * unused code can give that count back.
 */
export const assessCode = pgTable(
  'assess_code',
  {
    assesscode: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    cusercode: text()
      .notNull()
      .references(() => cuser.cusercode, { onDelete: 'cascade' }),
    /** Null for an assessment started through the institution's QR entry (one stage, no plan), or whose plan was deleted since. */
    plancode: text().references(() => plan.plancode, { onDelete: 'set null' }),
    /** '' when the whole plan was given. */
    stagecode: text().notNull().default(''),
    authid: text().references(() => planAuthorize.authid, { onDelete: 'set null' }),
    /** The forms to answer, in order, fixed when the code is given. */
    formcodes: jsonb().$type<string[]>().notNull(),
    /** issued → started (opened) → finished (every form submitted). */
    status: text().notNull().default('issued'),
    /** Consent signature (PNG, base64) and when it was given. */
    signature: text(),
    signedat: timestamp({ withTimezone: true }),
    /** When the respondent answered the app's archive form during this assessment. */
    archivedat: timestamp({ withTimezone: true }),
    createdby: text().notNull().default(''),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
    startedat: timestamp({ withTimezone: true }),
    finishedat: timestamp({ withTimezone: true }),
  },
  (t) => [index('assess_code_person_idx').on(t.cusercode), index('assess_code_muser_idx').on(t.musercode), index('assess_code_plan_idx').on(t.plancode)],
);

/** Answers saved while a form is in progress (resume after closing the phone). */
export const assessProgress = pgTable(
  'assess_progress',
  {
    assesscode: text()
      .notNull()
      .references(() => assessCode.assesscode, { onDelete: 'cascade' }),
    formcode: text().notNull(),
    answers: jsonb().$type<unknown[]>().notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.assesscode, t.formcode] })],
);

/** A respondent's session: only the SHA-256 of the token is stored; it opens only its own code. */
export const respondentSession = pgTable(
  'respondent_session',
  {
    tokenhash: text().primaryKey(),
    assesscode: text()
      .notNull()
      .references(() => assessCode.assesscode, { onDelete: 'cascade' }),
    createdat: timestamp({ withTimezone: true }).notNull(),
    expiresat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('respondent_session_code_idx').on(t.assesscode)],
);

/**
 * Code entries per address (as.c.exam.start / enter): the rate limit counts the failed ones. `ok` is
 * null while the entry is being answered, then true, or false for a code that does not exist. Only
 * those two are indexed: the count of every entry reads them alone, where an index of all entries
 * made it walk each earlier entry of the address (a school of 2,000 behind one address: 2,000 rows
 * at the last sign-in). The id is the key an entry is settled by (without it, each settling read the
 * whole table).
 */
export const codeAttempt = pgTable(
  'code_attempt',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    ip: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    ok: boolean(),
  },
  (t) => [index('code_attempt_open_idx').on(t.ip, t.at).where(sql`${t.ok} is null or ${t.ok} = false`)],
);

/**
 * One completed form: the report. It keeps the version it was scored with, so a later edit of
 * the form never changes it, and the scores, bands, levels, overall mental state and warnings.
 * One report per form of a given assessment: the unique index refuses a second submission even
 * when two arrive at once.
 */
export const assessment = pgTable(
  'assessment',
  {
    assessid: text().primaryKey(),
    formcode: text()
      .notNull()
      .references(() => form.formcode),
    version: integer().notNull(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    /** The person and the given assessment (null for results made outside the respondent channel). */
    cusercode: text().references(() => cuser.cusercode, { onDelete: 'cascade' }),
    assesscode: text().references(() => assessCode.assesscode, { onDelete: 'set null' }),
    plancode: text().notNull().default(''),
    stagecode: text().notNull().default(''),
    appid: text().notNull().default(''),
    answers: jsonb().$type<unknown>().notNull(),
    scores: jsonb().$type<unknown>().notNull(),
    /** Overall mental state 0-4 (SPEC §3). */
    mentalstate: integer().notNull().default(0),
    /** Highest band level of the indicators; null when none has bands. */
    level: integer(),
    colour: text(),
    warning: integer().notNull().default(0),
    voided: integer().notNull().default(0),
    /** 1: hidden from the respondent (as.m.cuser.showOrHiddenReport); the result page shows nothing of it. */
    hidden: integer().notNull().default(0),
    createdat: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('assessment_form_idx').on(t.formcode, t.version),
    index('assessment_muser_idx').on(t.musercode, t.createdat),
    index('assessment_person_idx').on(t.cusercode, t.createdat),
    uniqueIndex('assessment_code_form_idx').on(t.assesscode, t.formcode),
  ],
);
