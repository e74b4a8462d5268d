import { pgTable, pgView, text, integer, doublePrecision, timestamp, index, primaryKey } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { assessment } from '../assessments/tables.js';

/**
 * The reports: every completed form, as reports reads them. A report IS a finished `assessment` row,
 * which assessments writes (the respondent's submission) and owns; reports lists, filters, sorts
 * and aggregates them in one statement each through this view, and changes them only through
 * assessments' front door (setResultsHidden). drizzle-kit writes the view from this select, naming
 * every column: a migration adding a column to `assessment` recreates the view with it
 * (report-view.test.ts checks the two agree).
 */
export const report = pgView('report').as((qb) => qb.select().from(assessment));

/**
 * One indicator result of a report, written in the transaction that stores the report, so the
 * indicator/level filters, the anxious/depressed list and the statistics export read an indexed
 * table rather than every report's scores jsonb. `mood` marks anxiety and depression indicators
 * (see moods.ts) at the time of scoring.
 */
export const assessmentIndicator = pgTable(
  'assessment_indicator',
  {
    assessid: text()
      .notNull()
      .references(() => assessment.assessid, { onDelete: 'cascade' }),
    formcode: text().notNull(),
    code: text().notNull(),
    score: doublePrecision().notNull(),
    /** Band level 0-4; null when the indicator has no bands. */
    level: integer(),
    colour: text(),
    /** 'anxious', 'depressed' or null. */
    mood: text(),
  },
  (t) => [
    primaryKey({ columns: [t.assessid, t.code] }),
    index('assessment_indicator_form_idx').on(t.formcode, t.code, t.level),
    index('assessment_indicator_mood_idx').on(t.mood, t.level),
  ],
);

/** A staff comment on a report. Comments are only added (never edited), so they are its history. */
export const reportComment = pgTable(
  'report_comment',
  {
    commentid: text().primaryKey(),
    assessid: text()
      .notNull()
      .references(() => assessment.assessid, { onDelete: 'cascade' }),
    /** The account that wrote it and, for a staff sub-account, the staff user. */
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    userid: text(),
    comment: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('report_comment_report_idx').on(t.assessid, t.createdat)],
);
