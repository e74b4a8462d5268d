import { and, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { ReportFilter } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import { containsPattern, type Bindable } from '../../kit/index.js';
import { assertInScope } from '../auth/index.js';
import { ownedBy, accountInRegion, isRegionAuthority, statsAccounts } from '../accounts/index.js';
import { livingPerson, personInScope, personNameMatching, personOfGender } from '../persons/index.js';
import { findFilterStage, findPlan } from '../plans/index.js';
import { assertFormsReadable } from '../scales/index.js';
import { abnormalReport, countedReport } from '../statistics/index.js';
import { givenToClass, teamInScope } from '../tasks/index.js';
import { assessmentIndicator, report } from './tables.js';

/** Midnight in China (UTC+8, no daylight saving) of a calendar date, as an instant. */
export const chinaMidnight = (date: string, plusDays = 0) => new Date(Date.parse(`${date}T00:00:00+08:00`) + plusDays * 86_400_000);

/** The report filter as the kinds of fields it has, so narrower inputs (filter choices) go through it too. */
export type ReportFilterInput = Partial<ReportFilter>;

/**
 * The report filter of an aggregate (the report analysis' stage and form choices): what the
 * caller's statistics cover. For an education bureau that is the schools of its district, whose
 * reports it counts but never lists; for everyone else it is the report filter itself.
 */
export async function reportAggregateWhere(ctx: Ctx, f: ReportFilterInput): Promise<SQL> {
  if (!(await isRegionAuthority(ctx))) return reportFilterWhere(ctx, f);
  const { list } = await statsAccounts(ctx, { musercode: f.musercode || undefined });
  return reportFilterWhere(ctx, f, { accounts: list.map((a) => a.musercode) });
}

/**
 * The report filter as a where clause on the `report` view: the ONE translation the list, the exports
 * and any other action taking `reportFilter` use, so a file holds exactly what the list shows.
 * A named institution, plan, stage, form or person outside the caller's scope is "not found"
 * (thrown here), never an empty result. Only reports of living persons are included.
 */
export async function reportFilterWhere(ctx: Ctx, f: ReportFilterInput, over?: { accounts: string[] | null }): Promise<SQL> {
  const values = filterValues(ctx, f, over);
  await filterChecks(ctx, f, over && { owners: owners(values) });
  return reportWhere(values, f);
}

/**
 * The checks that what the filter names is in the caller's scope (reads, in order; the first refusal
 * rejects). The report list reads its page beside them instead of after them: its where clause keeps
 * its rows to the caller's scope either way, and a refusal drops them. `over`: an aggregate's owners
 * (none: every institution), where a stage's reports are looked for instead of the caller's scope.
 */
export async function filterChecks(ctx: Ctx, f: ReportFilterInput, over?: { owners: SQL | undefined }): Promise<void> {
  const forms = [...new Set([f.formcode, ...(f.quotas ?? []).map((q) => q.formcode)].filter((x): x is string => !!x))];
  if (f.cusercode) await personInScope(ctx, ctx.db, f.cusercode);
  if (f.plancode) await findPlan(ctx, ctx.db, f.plancode, false);
  if (f.stagecode) {
    const stagecode = f.stagecode;
    await findFilterStage(ctx, ctx.db, stagecode, async () => {
      const [used] = await ctx.db
        .select({ one: sql`1` })
        .from(report)
        .where(and(eq(report.stagecode, stagecode), over ? over.owners : ownedBy(ctx, report.musercode, undefined)))
        .limit(1);
      return !!used;
    });
  }
  if (f.teamid) await teamInScope(ctx, ctx.db, f.teamid);
  if (forms.length) await assertFormsReadable(ctx.db, ctx.me, forms);
}

/** The values the filter's where clause binds: set fields only, dates as instants, the name as a pattern. */
export interface FilterValues {
  /** One institution (named, in the caller's scope); else `scope`, the institutions it may see (none: all). */
  musercode?: string;
  scope?: string[];
  appid?: string;
  plancode?: string;
  stagecode?: string;
  formcode?: string;
  cusercode?: string;
  level?: number;
  mentalstate?: number;
  warning?: number;
  hidden?: number;
  provincecode?: string;
  citycode?: string;
  districtcode?: string;
  gender?: string;
  teamid?: string;
  grade?: string;
  from?: string;
  until?: string;
  pattern?: string;
  quotas?: { formcode: string; code: string; levels: number[] }[];
}
/** FilterValues as a where clause takes them: each a value, or in a prepared statement its placeholder. */
export type BoundValues = { [K in Exclude<keyof FilterValues, 'quotas'>]?: Bindable<NonNullable<FilterValues[K]>> } & {
  quotas?: { formcode: Bindable<string>; code: Bindable<string>; levels: Bindable<number[]> }[];
};

/**
 * What the filter binds, within the caller's scope or the institutions `over` an aggregate covers.
 * A named institution outside the caller's scope is "not found", thrown here (ownedBy's check).
 */
export function filterValues(ctx: Ctx, f: ReportFilterInput, over?: { accounts: string[] | null }): FilterValues {
  if (!over && f.musercode) assertInScope(ctx.me, f.musercode);
  const set = <T>(v: T | '' | undefined) => (v === '' ? undefined : v);
  const values: FilterValues = {
    musercode: over ? undefined : set(f.musercode),
    scope: over ? (over.accounts ?? undefined) : f.musercode || ctx.me.scope === 'all' ? undefined : ctx.me.scope,
    appid: set(f.appid),
    plancode: set(f.plancode),
    stagecode: set(f.stagecode),
    formcode: set(f.formcode),
    cusercode: set(f.cusercode),
    level: f.level,
    mentalstate: f.mentalstate,
    warning: f.warning,
    hidden: f.hidden,
    provincecode: set(f.provincecode),
    citycode: set(f.citycode),
    districtcode: set(f.districtcode),
    gender: set(f.gender),
    teamid: set(f.teamid),
    grade: set(f.grade),
    from: f.startdate ? chinaMidnight(f.startdate).toISOString() : undefined,
    until: f.enddate ? chinaMidnight(f.enddate, 1).toISOString() : undefined,
    pattern: f.realname ? containsPattern(f.realname) : undefined,
    quotas: f.quotas?.length ? f.quotas.map((q) => ({ formcode: q.formcode, code: q.quotacode, levels: q.levels })) : undefined,
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as FilterValues;
}

/** The owners' condition of the values: one institution, a list of them, or none (every one). */
function owners(v: BoundValues): SQL | undefined {
  if (v.musercode !== undefined) return eq(report.musercode, v.musercode);
  // An array as ONE parameter (sql.param): drizzle writes an array in sql`` as a list.
  return v.scope !== undefined ? sql`${report.musercode} = any(${sql.param(v.scope)}::text[])` : undefined;
}

const equalities = ['appid', 'plancode', 'stagecode', 'formcode', 'cusercode', 'level', 'mentalstate', 'warning', 'hidden'] as const;

/**
 * The filter's conditions on the `report` view, for its values or (a prepared list) their
 * placeholders; `rules` are the filter's yes/no choices, which change the SQL itself.
 */
export function reportWhere(v: BoundValues, rules: Pick<ReportFilterInput, 'counted' | 'abnormal'>): SQL {
  return and(
    isNotNull(report.cusercode),
    livingPerson(report.cusercode),
    owners(v),
    ...equalities.map((k) => (v[k] !== undefined ? eq(report[k], v[k]) : undefined)),
    rules.counted !== undefined ? countedReport(report, rules.counted) : undefined,
    rules.abnormal !== undefined ? abnormalReport(report.mentalstate, rules.abnormal) : undefined,
    accountInRegion(report.musercode, v),
    v.gender !== undefined ? personOfGender(report.cusercode, v.gender) : undefined,
    v.teamid !== undefined || v.grade !== undefined ? givenToClass(report.assesscode, { teamid: v.teamid, grade: v.grade }) : undefined,
    v.from !== undefined ? sql`${report.createdat} >= ${v.from}` : undefined,
    v.until !== undefined ? sql`${report.createdat} < ${v.until}` : undefined,
    v.pattern !== undefined ? personNameMatching(report.cusercode, v.pattern) : undefined,
    ...(v.quotas ?? []).map(
      (q) =>
        sql`exists (select 1 from ${assessmentIndicator} where ${and(
          eq(assessmentIndicator.assessid, report.assessid),
          eq(assessmentIndicator.formcode, q.formcode),
          eq(assessmentIndicator.code, q.code),
          sql`${assessmentIndicator.level} = any(${sql.param(q.levels)}::int[])`,
        )})`,
    ),
  )!;
}
