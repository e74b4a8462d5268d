import { and, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import { classTeams } from '../tasks/index.js';
import { spansOf, type Span } from './period.js';
import { statsCount, statsPeople, statsReport, statsTeam } from './tables.js';

/**
 * What a statistics question covers once the filter is resolved: the accounts (null: every
 * account), the app and stage (undefined: all) and the days (undefined ends: open).
 */
export interface StatsScope {
  accounts: string[] | null;
  appid?: string;
  stagecode?: string;
  start?: string;
  end?: string;
}

const rowsOf = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const int = (column: AnyPgColumn) => sql<number>`coalesce(sum(${column}), 0)::int`.mapWith(Number);
/** Groups whose reports were all hidden or deleted since keep rows summing to zero: they count nothing. */
const counted = (n: AnyPgColumn) => sql`sum(${n}) > 0`;

function spansWhere(grain: AnyPgColumn, period: AnyPgColumn, spans: Span[]): SQL {
  return or(...spans.map((s) => and(eq(grain, s.grain), s.from ? gte(period, s.from) : undefined, s.to ? lte(period, s.to) : undefined)))!;
}

/** The aggregate rows of a scope: accounts, app, stage (unless ignored) and the spans of its days. */
function countWhere(s: StatsScope, opts: { stage?: boolean } = {}): SQL {
  return and(
    s.accounts ? inArray(statsCount.musercode, s.accounts) : undefined,
    s.appid ? eq(statsCount.appid, s.appid) : undefined,
    s.stagecode && opts.stage !== false ? eq(statsCount.stagecode, s.stagecode) : undefined,
    spansWhere(statsCount.grain, statsCount.period, spansOf(s.start, s.end)),
  )!;
}

function teamWhere(s: StatsScope): SQL {
  return and(
    s.accounts ? inArray(statsTeam.musercode, s.accounts) : undefined,
    s.appid ? eq(statsTeam.appid, s.appid) : undefined,
    s.stagecode ? eq(statsTeam.stagecode, s.stagecode) : undefined,
    spansWhere(statsTeam.grain, statsTeam.period, spansOf(s.start, s.end)),
  )!;
}

/** Whether the accounts (null: every account) have counted reports or codes in a stage. */
export async function stageCounted(db: DbOrTx, accounts: string[] | null, stagecode: string): Promise<boolean> {
  if (accounts && !accounts.length) return false;
  const [row] = await db
    .select({ one: sql`1` })
    .from(statsCount)
    .where(and(eq(statsCount.stagecode, stagecode), accounts ? inArray(statsCount.musercode, accounts) : undefined))
    .limit(1);
  return !!row;
}

export interface Totals {
  n: number;
  abnormal: number;
  dep: number[];
  anx: number[];
}

/** Reports, abnormal ones and mood levels in the scope. */
export async function reportTotals(db: DbOrTx, s: StatsScope): Promise<Totals> {
  const c = statsCount;
  const [r] = await db
    .select({
      n: int(c.n),
      abnormal: int(c.abnormal),
      ...{ d0: int(c.dep0), d1: int(c.dep1), d2: int(c.dep2), d3: int(c.dep3), d4: int(c.dep4) },
      ...{ a0: int(c.anx0), a1: int(c.anx1), a2: int(c.anx2), a3: int(c.anx3), a4: int(c.anx4) },
    })
    .from(c)
    .where(countWhere(s));
  return { n: r!.n, abnormal: r!.abnormal, dep: [r!.d0, r!.d1, r!.d2, r!.d3, r!.d4], anx: [r!.a0, r!.a1, r!.a2, r!.a3, r!.a4] };
}

/** Reports and abnormal ones per gender. */
export async function reportsByGender(db: DbOrTx, s: StatsScope): Promise<Map<string, { n: number; abnormal: number }>> {
  const rows = await db
    .select({ gender: statsCount.gender, n: int(statsCount.n), abnormal: int(statsCount.abnormal) })
    .from(statsCount)
    .where(countWhere(s))
    .groupBy(statsCount.gender);
  return new Map(rows.map((r) => [r.gender, r]));
}

/** Reports and abnormal ones per daily period (only days with rows). */
export async function reportsByDay(db: DbOrTx, s: StatsScope & { start: string; end: string }) {
  return db
    .select({ day: statsCount.period, n: int(statsCount.n), abnormal: int(statsCount.abnormal) })
    .from(statsCount)
    .where(
      and(
        s.accounts ? inArray(statsCount.musercode, s.accounts) : undefined,
        s.appid ? eq(statsCount.appid, s.appid) : undefined,
        s.stagecode ? eq(statsCount.stagecode, s.stagecode) : undefined,
        eq(statsCount.grain, 'd'),
        gte(statsCount.period, s.start),
        lte(statsCount.period, s.end),
      ),
    )
    .groupBy(statsCount.period);
}

const monthKey = (period: AnyPgColumn) => sql<string>`to_char(${period}, 'YYYY-MM')`;

/** Reports and abnormal ones per month and app (only pairs with rows). */
export async function reportsByMonthAndApp(db: DbOrTx, s: StatsScope) {
  const month = monthKey(statsCount.period);
  return db
    .select({ month, appid: statsCount.appid, n: int(statsCount.n), abnormal: int(statsCount.abnormal) })
    .from(statsCount)
    .where(countWhere(s))
    .groupBy(month, statsCount.appid);
}

/** Reports and abnormal ones per class, with its grade and name. */
export async function reportsByClass(db: DbOrTx, s: StatsScope) {
  const t = classTeams(db);
  return db
    .select({
      teamid: statsTeam.teamid,
      musercode: statsTeam.musercode,
      grade: t.grade,
      classname: t.classname,
      n: int(statsTeam.n),
      abnormal: int(statsTeam.abnormal),
    })
    .from(statsTeam)
    .innerJoin(t, eq(t.teamid, statsTeam.teamid))
    .where(teamWhere(s))
    .groupBy(statsTeam.teamid, statsTeam.musercode, t.grade, t.classname)
    .having(counted(statsTeam.n));
}

/** Reports and abnormal ones of classes per grade, optionally per month too (month '' otherwise). */
export async function reportsByGrade(db: DbOrTx, s: StatsScope, perMonth: boolean) {
  const t = classTeams(db);
  const month = perMonth ? monthKey(statsTeam.period) : sql<string>`''`;
  return db
    .select({ grade: t.grade, month, n: int(statsTeam.n), abnormal: int(statsTeam.abnormal) })
    .from(statsTeam)
    .innerJoin(t, eq(t.teamid, statsTeam.teamid))
    .where(teamWhere(s))
    .groupBy(t.grade, ...(perMonth ? [month] : []))
    .having(counted(statsTeam.n));
}

/** Accounts with at least one counted report in the scope. */
export async function assessedAccounts(db: DbOrTx, s: StatsScope): Promise<Set<string>> {
  const rows = await db
    .select({ musercode: statsCount.musercode })
    .from(statsCount)
    .where(countWhere(s))
    .groupBy(statsCount.musercode)
    .having(counted(statsCount.n));
  return new Set(rows.map((r) => r.musercode));
}

/** Living persons registered in the scope's days (the stage does not apply). */
export async function personsRegistered(db: DbOrTx, s: StatsScope): Promise<number> {
  const [r] = await db
    .select({ n: int(statsCount.persons) })
    .from(statsCount)
    .where(countWhere(s, { stage: false }));
  return r!.n;
}

/** One-time codes given in the scope's days, by their state. */
export async function codesByState(db: DbOrTx, s: StatsScope) {
  const [r] = await db
    .select({ issued: int(statsCount.issued), started: int(statsCount.started), finished: int(statsCount.finished) })
    .from(statsCount)
    .where(countWhere(s));
  return r!;
}

/**
 * Distinct persons with a counted report in the scope. Without days it is a sum of per-account
 * counts kept by the triggers; with days, the persons are read from the fact rows of those days
 * (an index-only range of stats_report_day_idx per account).
 */
export async function personsAssessed(db: DbOrTx, s: StatsScope): Promise<number> {
  if (!s.start && !s.end) {
    const [r] = await db
      .select({ n: int(statsPeople.persons) })
      .from(statsPeople)
      .where(
        and(
          s.accounts ? inArray(statsPeople.musercode, s.accounts) : undefined,
          eq(statsPeople.appid, s.appid ?? '*'),
          eq(statsPeople.stagecode, s.stagecode ?? '*'),
        ),
      );
    return r!.n;
  }
  const r = statsReport;
  const [row] = await rowsOf<{ n: number }>(
    db,
    sql`select count(distinct ${r.cusercode})::int as n from ${r} where ${and(
      sql`true`,
      s.accounts ? inArray(r.musercode, s.accounts) : undefined,
      s.appid ? eq(r.appid, s.appid) : undefined,
      s.stagecode ? eq(r.stagecode, s.stagecode) : undefined,
      s.start ? gte(r.day, s.start) : undefined,
      s.end ? lte(r.day, s.end) : undefined,
    )}`,
  );
  return Number(row!.n);
}
