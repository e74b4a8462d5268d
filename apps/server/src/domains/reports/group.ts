import { inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { setResultsHidden } from '../assessments/index.js';
import { assessmentIndicator, report } from './tables.js';

/**
 * Reports of a group, aggregated in SQL (the group report of a task: tasks/group-report). The
 * group is a cohort: a subquery answering `(assesscode, grp)`, the given assessments whose
 * reports count and the group (team, grade …) each belongs to. Only current reports count (not
 * voided). One given assessment has one report per form, so counts per form are persons.
 */

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

export interface IndicatorLevelCount {
  formcode: string;
  code: string;
  /** null: an indicator without bands. */
  level: number | null;
  n: number;
  /** Sum of the scores, for means over several levels. */
  sum: number;
}

/** Per form, indicator and level: how many reports of the cohort, and their score sum. */
export async function cohortIndicatorLevels(db: DbOrTx, cohort: SQL): Promise<IndicatorLevelCount[]> {
  const rows = await rowsOf<IndicatorLevelCount>(
    db,
    sql`select i.formcode, i.code, i.level, count(*)::int as n, sum(i.score)::float8 as sum
        from ${assessmentIndicator} i join ${report} a on a.assessid = i.assessid
        where a.voided = 0 and a.assesscode in (select c.assesscode from (${cohort}) c)
        group by i.formcode, i.code, i.level`,
  );
  return rows.map((r) => ({ ...r, level: r.level === null ? null : Number(r.level), n: Number(r.n), sum: Number(r.sum) }));
}

export interface GroupWorst {
  grp: string;
  /** Worst level over the person's reports of the cohort (0 when none has bands). */
  worst: number;
  /** Persons at that worst level, and how many of them have a warning. */
  n: number;
  warned: number;
}

/** Per group: persons (given assessments with at least one current report) by their worst level. */
export async function cohortWorstLevels(db: DbOrTx, cohort: SQL): Promise<GroupWorst[]> {
  const rows = await rowsOf<GroupWorst>(
    db,
    sql`select p.grp, p.worst, count(*)::int as n, sum(p.warned)::int as warned from (
          select c.grp, c.assesscode, coalesce(max(a.level), 0) as worst, max(a.warning) as warned
          from (${cohort}) c join ${report} a on a.assesscode = c.assesscode and a.voided = 0
          group by c.grp, c.assesscode) p
        group by p.grp, p.worst`,
  );
  return rows.map((r) => ({ grp: String(r.grp), worst: Number(r.worst), n: Number(r.n), warned: Number(r.warned) }));
}

export interface AttentionReport {
  assesscode: string;
  grp: string;
  cusercode: string;
  reportid: string;
  formcode: string;
  level: number;
  warning: number;
}

/**
 * Each given assessment of the cohort that needs attention (a warning, or a level at or above
 * `minlevel`): its worst level and whether any of its reports warned, with its worst report (to
 * open), worst first (warning, level, then newest), at most `limit`.
 */
export async function cohortAttention(db: DbOrTx, cohort: SQL, minlevel: number, limit: number): Promise<AttentionReport[]> {
  const rows = await rowsOf<AttentionReport>(
    db,
    sql`select * from (
          select distinct on (c.assesscode) c.assesscode, c.grp, a.cusercode, a.assessid as reportid, a.formcode,
                 max(coalesce(a.level, 0)) over (partition by c.assesscode) as level,
                 max(a.warning) over (partition by c.assesscode) as warning, a.createdat
          from (${cohort}) c join ${report} a on a.assesscode = c.assesscode and a.voided = 0
          where a.cusercode is not null
          order by c.assesscode, a.level desc nulls last, a.warning desc, a.createdat desc, a.assessid) w
        where w.warning = 1 or w.level >= ${minlevel}
        order by w.warning desc, w.level desc, w.createdat desc, w.assesscode
        limit ${limit}`,
  );
  return rows.map((r) => ({
    assesscode: r.assesscode,
    grp: String(r.grp),
    cusercode: r.cusercode,
    reportid: r.reportid,
    formcode: r.formcode,
    level: Number(r.level),
    warning: Number(r.warning),
  }));
}

/**
 * Shows or hides to their respondents every report of the given assessments (the team version of
 * as.m.cuser.showOrHiddenReport). The caller has checked the codes are in scope. Answers how many
 * reports changed.
 */
export async function setReportsHidden(db: DbOrTx, assesscodes: string[], hidden: 0 | 1): Promise<number> {
  let changed = 0;
  for (let i = 0; i < assesscodes.length; i += 1000) {
    const reports = db.select({ id: report.assessid }).from(report).where(inArray(report.assesscode, assesscodes.slice(i, i + 1000)));
    changed += await setResultsHidden(db, reports, hidden);
  }
  return changed;
}
