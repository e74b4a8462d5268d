import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * The statistics read model (issue 15). Nothing in this folder is written by application code:
 * database triggers (migration 0014, `stats_*` functions) keep every table here exact in the
 * same transaction as the change that moves a figure — a report stored, hidden, voided or
 * deleted, a person registered, deleted or edited, a code given or answered — whatever code path
 * made it. `select stats_rebuild()` recomputes all of it from the raw rows (the bench generator
 * loads raw rows with triggers off and then rebuilds; a test proves rebuild equals the triggers).
 *
 * What counts (the contract, actions/statistics.ts): a report of a living person, neither hidden
 * nor voided. Days are China calendar days (UTC+8) of the report's, person's or code's createdat.
 */

/** One row per counted report: the dimensions the statistics filter and group by, and its mood levels. */
export const statsReport = pgTable(
  'stats_report',
  {
    /** The report (no foreign key: the delete trigger on assessment subtracts the row before removing it). */
    assessid: text().primaryKey(),
    cusercode: text().notNull(),
    musercode: text().notNull(),
    appid: text().notNull(),
    stagecode: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    gender: text().notNull(),
    /** The class (team) of the task the report was given through; null outside a class task. */
    teamid: text(),
    /** 1 when the overall mental state is 2, 3 or 4. */
    abnormal: integer().notNull(),
    /** Depression and anxiety indicator results of the report per band level 0-4. */
    dep0: integer().notNull().default(0),
    dep1: integer().notNull().default(0),
    dep2: integer().notNull().default(0),
    dep3: integer().notNull().default(0),
    dep4: integer().notNull().default(0),
    anx0: integer().notNull().default(0),
    anx1: integer().notNull().default(0),
    anx2: integer().notNull().default(0),
    anx3: integer().notNull().default(0),
    anx4: integer().notNull().default(0),
  },
  // Distinct persons in a date range read this index only (no heap): musercode, day, then the person.
  (t) => [index('stats_report_day_idx').on(t.musercode, t.day, t.cusercode, t.appid, t.stagecode)],
);

/**
 * The stripe of a sum row (issue 33 §3). Every counted report, code or person adds to one of
 * STATS_STRIPES rows of its key, chosen by a hash of its own id (`stats_stripe` in migration 0040),
 * so parallel submissions of one institution on one day lock different rows instead of queueing
 * on one, while a report is still taken away from the row it was added to and the rebuild writes
 * the same rows as the triggers. Every read sums over the stripes.
 */
const stripe = () => integer().notNull().default(0);

const measures = {
  /** Counted reports, and of them abnormal ones. */
  n: integer().notNull().default(0),
  abnormal: integer().notNull().default(0),
};

/**
 * Daily ('d') and monthly ('m', period = the 1st) sums per institution, app, stage and gender:
 * reports, moods, persons registered (stagecode '') and codes given by state. A range of whole
 * months reads the monthly rows; only its partial months at either end read daily ones.
 */
export const statsCount = pgTable(
  'stats_count',
  {
    grain: text().notNull(),
    period: date({ mode: 'string' }).notNull(),
    musercode: text().notNull(),
    appid: text().notNull(),
    stagecode: text().notNull(),
    gender: text().notNull(),
    stripe: stripe(),
    ...measures,
    dep0: integer().notNull().default(0),
    dep1: integer().notNull().default(0),
    dep2: integer().notNull().default(0),
    dep3: integer().notNull().default(0),
    dep4: integer().notNull().default(0),
    anx0: integer().notNull().default(0),
    anx1: integer().notNull().default(0),
    anx2: integer().notNull().default(0),
    anx3: integer().notNull().default(0),
    anx4: integer().notNull().default(0),
    /** Living persons registered (stagecode ''). */
    persons: integer().notNull().default(0),
    /** One-time codes of living persons given that day, by their state now. */
    issued: integer().notNull().default(0),
    started: integer().notNull().default(0),
    finished: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.grain, t.period, t.musercode, t.appid, t.stagecode, t.gender, t.stripe] }),
    check('stats_count_grain_check', sql`${t.grain} in ('d', 'm')`),
    // Covering: a scope's sums read the index alone (index-only scan), not ~10,000 scattered heap
    // pages at 3,000,000 reports (bench:stats; drizzle has no INCLUDE, so the measures are keys).
    index('stats_count_muser_idx').on(
      t.musercode,
      t.grain,
      t.period,
      t.appid,
      t.stagecode,
      t.gender,
      t.n,
      t.abnormal,
      t.dep0,
      t.dep1,
      t.dep2,
      t.dep3,
      t.dep4,
      t.anx0,
      t.anx1,
      t.anx2,
      t.anx3,
      t.anx4,
      t.persons,
      t.issued,
      t.started,
      t.finished,
    ),
  ],
);

/** Daily and monthly sums of counted reports per class (team of a class task). */
export const statsTeam = pgTable(
  'stats_team',
  {
    grain: text().notNull(),
    period: date({ mode: 'string' }).notNull(),
    teamid: text().notNull(),
    musercode: text().notNull(),
    appid: text().notNull(),
    stagecode: text().notNull(),
    stripe: stripe(),
    ...measures,
  },
  (t) => [
    primaryKey({ columns: [t.grain, t.period, t.teamid, t.appid, t.stagecode, t.stripe] }),
    // Covering, as stats_count_muser_idx.
    index('stats_team_muser_idx').on(t.musercode, t.grain, t.period, t.teamid, t.appid, t.stagecode, t.n, t.abnormal),
  ],
);

/** Per person, app and stage ('*': any): counted reports; a person counts as assessed while n > 0. */
export const statsPerson = pgTable(
  'stats_person',
  {
    cusercode: text().notNull(),
    musercode: text().notNull(),
    appid: text().notNull(),
    stagecode: text().notNull(),
    n: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.cusercode, t.musercode, t.appid, t.stagecode] })],
);

/** Persons with at least one counted report per institution, app and stage ('*': any app, any stage). */
export const statsPeople = pgTable(
  'stats_people',
  {
    musercode: text().notNull(),
    appid: text().notNull(),
    stagecode: text().notNull(),
    stripe: stripe(),
    persons: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.musercode, t.appid, t.stagecode, t.stripe] })],
);
