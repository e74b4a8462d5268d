import { and, count, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { CaseSummary, CaseState, WarningLevel } from '@xinli/contract';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid } from '../../http/errors.js';
import { statsAccounts } from '../accounts/index.js';
import { followUp, warnCase } from './tables.js';

/**
 * The crisis cases as an oversight body sees them (issue 28): totals over the institutions the
 * caller's statistics cover (an education bureau: the schools of its district) per level, per
 * state and per institution. Each school handles its own cases by name; the district sees how
 * many, never who: no person is named, and a count from 1 to mincell - 1 (AI_MIN_CELL, the
 * project's small-cell rule) is withheld, since a small number in one school can point at a pupil.
 */

const LEVELS: WarningLevel[] = ['critical', 'attention'];
const STATES: CaseState[] = ['open', 'acknowledged', 'followup', 'closed'];
const dayStart = (d: string, plus = 0) => new Date(Date.parse(`${d}T00:00:00+08:00`) + plus * 86_400_000);

/** A count as shown to an oversight body: withheld (null) when small but not zero. */
export const suppressed = (n: number, min: number): number | null => (n > 0 && n < min ? null : n);

/**
 * The cells of a partition whose sum is published (levels of the total, states, a school's
 * critical cases and the rest): the small ones withheld, and when only one is, the smallest other
 * non-zero cell too, so that it cannot be worked out as the total minus the others.
 */
export function protect(cells: number[], min: number): (number | null)[] {
  const out = cells.map((n) => suppressed(n, min));
  if (out.filter((v) => v === null).length === 1) {
    const rest = cells.map((n, i) => ({ n, i })).filter(({ n, i }) => out[i] !== null && n > 0);
    rest.sort((a, b) => a.n - b.n);
    if (rest[0]) out[rest[0].i] = null;
  }
  return out;
}

export const caseSummaryHandlers = {
  'as.m.warning.getCaseSummary': async ({ musercode, startdate, enddate }, ctx): Promise<CaseSummary> => {
    if (startdate && enddate && startdate > enddate)
      invalid({ zh: '开始日期不能晚于结束日期', en: 'The start date cannot be after the end date' });
    const min = ctx.config.aiMinCell;
    const { all, list } = await statsAccounts(ctx, { musercode: musercode || undefined });
    const names = new Map(list.map((a) => [a.musercode, a.insname]));
    const where = and(
      all ? undefined : list.length ? inArray(warnCase.musercode, [...names.keys()]) : sql`false`,
      startdate ? gte(warnCase.openedat, dayStart(startdate)) : undefined,
      enddate ? lt(warnCase.openedat, dayStart(enddate, 1)) : undefined,
    );
    const groups = await ctx.db
      .select({ musercode: warnCase.musercode, level: warnCase.level, state: warnCase.state, n: count() })
      .from(warnCase)
      .where(where)
      .groupBy(warnCase.musercode, warnCase.level, warnCase.state);
    const [follow] = await ctx.db
      .select({ n: count() })
      .from(followUp)
      .innerJoin(warnCase, eq(warnCase.caseid, followUp.caseid))
      .where(where);
    const sum = (keep: (g: (typeof groups)[number]) => boolean) => groups.filter(keep).reduce((a, g) => a + Number(g.n), 0);
    const schools = [...new Set(groups.map((g) => g.musercode))].map((code) => ({
      musercode: code,
      insname: names.get(code) ?? '',
      n: sum((g) => g.musercode === code),
      critical: sum((g) => g.musercode === code && g.level === 'critical'),
      open: sum((g) => g.musercode === code && g.state !== 'closed'),
    }));
    schools.sort((a, b) => b.n - a.n || a.musercode.localeCompare(b.musercode));
    // Each published figure with the partition it belongs to: a school's critical cases and the
    // rest, its open cases and the closed; the schools' columns add up to the district's figures.
    const critical = schools.map((x) => protect([x.critical, x.n - x.critical], min)[0]!);
    const open = schools.map((x) => protect([x.open, x.n - x.open], min)[0]!);
    const columns = (values: number[], kept: (number | null)[]) => {
      const again = protect(values.map((v, i) => (kept[i] === null ? 1 : v)), min);
      return values.map((v, i) => (kept[i] === null || again[i] === null ? null : v));
    };
    const totals = protect(schools.map((x) => x.n), min);
    const criticals = columns(schools.map((x) => x.critical), critical);
    const opens = columns(schools.map((x) => x.open), open);
    const levels = protect(LEVELS.map((level) => sum((g) => g.level === level)), min);
    const states = protect(STATES.map((state) => sum((g) => g.state === state)), min);
    return {
      mincell: min,
      total: suppressed(sum(() => true), min),
      bylevel: LEVELS.map((level, i) => ({ level, count: levels[i]! })),
      bystate: STATES.map((state, i) => ({ state, count: states[i]! })),
      byschool: schools.map((x, i) => ({ musercode: x.musercode, insname: x.insname, total: totals[i]!, critical: criticals[i]!, open: opens[i]! })),
      followups: suppressed(Number(follow?.n ?? 0), min),
    };
  },
} satisfies HandlerMap;
