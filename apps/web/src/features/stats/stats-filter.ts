/**
 * The statistics filter (contract `statsFilter`) as the pages keep it in the URL; the links from
 * a chart to the matching report list are in features/links.ts. Pure, so the rules are unit-tested.
 */
import { PopulationApp, type StatsFilter } from '@xinli/contract';

export const FILTER_FIELDS = [
  'musercode',
  'provincecode',
  'citycode',
  'districtcode',
  'appid',
  'stagecode',
  'startdate',
  'enddate',
] as const;
type Field = (typeof FILTER_FIELDS)[number];

/** The filter of the statistics actions from decoded URL filters: known fields, no blanks. */
export function statsFilterOf(values: Record<string, unknown>, fixed: Partial<StatsFilter> = {}): StatsFilter {
  const out: Partial<Record<Field, string>> = {};
  for (const k of FILTER_FIELDS) {
    const v = fixed[k] ?? values[k];
    if (typeof v === 'string' && v !== '') out[k] = v;
  }
  return out as StatsFilter;
}

/**
 * The filter's stage when the loaded stage choices do not hold it (a stage from an old link or
 * another population): the page drops it and says so once. Undefined while the choices load
 * (`choices` undefined when they cannot be known).
 */
export function staleStage(stagecode: string | undefined, choices: { value: string }[] | undefined, loading: boolean): string | undefined {
  if (!stagecode || loading || !choices) return undefined;
  return choices.some((c) => c.value === stagecode) ? undefined : stagecode;
}

/** Which population-bound cards a statistics page shows. */
export interface CardSet {
  /** Grade trend, abnormal rate by grade and by class: students only have grades and classes. */
  classes: boolean;
  /** Abnormal reports of men and women: not for maternity alone (every respondent is a woman). */
  gender: boolean;
}

const cardsOfApp = (appid: string): CardSet => ({ classes: appid === PopulationApp.students, gender: appid !== PopulationApp.maternity });

/**
 * The cards that fit the populations in view (issue 28: a maternity hospital saw empty grade and
 * class cards and a men/women chart): the app chosen in the filter, else the account's apps
 * (none: the platform, every population), any of which needing a card shows it. Unknown apps
 * (still loading) show none of these cards rather than ones that may not fit.
 */
export function cardsFor(filter: Pick<StatsFilter, 'appid'>, apps: string[] | undefined): CardSet {
  if (filter.appid) return cardsOfApp(filter.appid);
  if (!apps) return { classes: false, gender: false };
  if (!apps.length) return { classes: true, gender: true };
  const each = apps.map(cardsOfApp);
  return { classes: each.some((c) => c.classes), gender: each.some((c) => c.gender) };
}

const DAY_MS = 86_400_000;
const day = (s: string) => Date.UTC(Number(s.slice(0, 4)), Number(s.slice(5, 7)) - 1, Number(s.slice(8, 10)));

/** Days in the filter's range, both ends included (null without a complete range). */
export function rangeDays(f: Pick<StatsFilter, 'startdate' | 'enddate'>): number | null {
  if (!f.startdate || !f.enddate) return null;
  return Math.round((day(f.enddate) - day(f.startdate)) / DAY_MS) + 1;
}

/** Months touched by the range (null without a complete range). */
export function rangeMonths(f: Pick<StatsFilter, 'startdate' | 'enddate'>): number | null {
  if (!f.startdate || !f.enddate) return null;
  const m = (s: string) => Number(s.slice(0, 4)) * 12 + Number(s.slice(5, 7)) - 1;
  return m(f.enddate) - m(f.startdate) + 1;
}

/** The contract's bounds of a trend: at most 366 days (daily) or 36 months (monthly). */
export const MAX_TREND_DAYS = 366;
export const MAX_TREND_MONTHS = 36;
export const dayTrendTooLong = (f: StatsFilter) => (rangeDays(f) ?? 0) > MAX_TREND_DAYS;
export const monthTrendTooLong = (f: StatsFilter) => (rangeMonths(f) ?? 0) > MAX_TREND_MONTHS;

/** The first and last day of a month ('2026-03'), narrowed to the filter's own range. */
export function monthRange(month: string, f: Pick<StatsFilter, 'startdate' | 'enddate'>): { startdate: string; enddate: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const start = `${month}-01`;
  const end = `${month}-${String(last).padStart(2, '0')}`;
  return {
    startdate: f.startdate && f.startdate > start ? f.startdate : start,
    enddate: f.enddate && f.enddate < end ? f.enddate : end,
  };
}

/** A share (0..1) in percent with one decimal. */
export const percent = (ratio: number) => Math.round(ratio * 1000) / 10;
/** abnormal / count in percent with one decimal (0 without reports). */
export const rateOf = (abnormal: number, count: number) => (count ? percent(abnormal / count) : 0);
