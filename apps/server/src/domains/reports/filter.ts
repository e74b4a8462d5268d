import { and, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ReportFilter } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import { ownedBy, accountInRegion, isRegionAuthority, statsAccounts } from '../accounts/index.js';
import { livingPerson, personInScope, personNameLike, personOfGender } from '../persons/index.js';
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
  const { where, checked } = reportFilter(ctx, f, over);
  await checked;
  return where;
}

/**
 * reportFilterWhere in its two parts: the where clause, and the checks that what the filter names is
 * in the caller's scope (reads, in order; the first refusal rejects `checked`). The report list reads
 * its page beside the checks instead of after them: the where clause keeps its rows to the caller's
 * scope either way, and a refusal drops them. Everyone else awaits `checked` first.
 */
export function reportFilter(ctx: Ctx, f: ReportFilterInput, over?: { accounts: string[] | null }): { where: SQL; checked: Promise<void> } {
  // `over`: the accounts an aggregate covers instead of the caller's scope (statsAccounts).
  const owners = over
    ? over.accounts
      ? inArray(report.musercode, over.accounts.length ? over.accounts : [''])
      : undefined
    : ownedBy(ctx, report.musercode, f.musercode || undefined);
  const where = reportWhere(f, owners);
  const forms = [...new Set([f.formcode, ...(f.quotas ?? []).map((q) => q.formcode)].filter((x): x is string => !!x))];
  const checked = (async () => {
    if (f.cusercode) await personInScope(ctx, ctx.db, f.cusercode);
    if (f.plancode) await findPlan(ctx, ctx.db, f.plancode, false);
    if (f.stagecode) {
      const stagecode = f.stagecode;
      await findFilterStage(ctx, ctx.db, stagecode, async () => {
        const [used] = await ctx.db
          .select({ one: sql`1` })
          .from(report)
          .where(and(eq(report.stagecode, stagecode), over ? owners : ownedBy(ctx, report.musercode, undefined)))
          .limit(1);
        return !!used;
      });
    }
    if (f.teamid) await teamInScope(ctx, ctx.db, f.teamid);
    if (forms.length) await assertFormsReadable(ctx.db, ctx.me, forms);
  })();
  return { where, checked };
}

/** The filter's conditions on the `report` view, within `owners`. */
function reportWhere(f: ReportFilterInput, owners: SQL | undefined): SQL {
  return and(
    isNotNull(report.cusercode),
    livingPerson(report.cusercode),
    owners,
    f.appid ? eq(report.appid, f.appid) : undefined,
    f.plancode ? eq(report.plancode, f.plancode) : undefined,
    f.stagecode ? eq(report.stagecode, f.stagecode) : undefined,
    f.formcode ? eq(report.formcode, f.formcode) : undefined,
    f.cusercode ? eq(report.cusercode, f.cusercode) : undefined,
    f.level !== undefined ? eq(report.level, f.level) : undefined,
    f.mentalstate !== undefined ? eq(report.mentalstate, f.mentalstate) : undefined,
    f.warning !== undefined ? eq(report.warning, f.warning) : undefined,
    f.hidden !== undefined ? eq(report.hidden, f.hidden) : undefined,
    f.counted !== undefined ? countedReport(report, f.counted) : undefined,
    f.abnormal !== undefined ? abnormalReport(report.mentalstate, f.abnormal) : undefined,
    accountInRegion(report.musercode, f),
    f.gender ? personOfGender(report.cusercode, f.gender) : undefined,
    f.teamid || f.grade ? givenToClass(report.assesscode, { teamid: f.teamid || undefined, grade: f.grade || undefined }) : undefined,
    f.startdate ? gte(report.createdat, chinaMidnight(f.startdate)) : undefined,
    f.enddate ? lt(report.createdat, chinaMidnight(f.enddate, 1)) : undefined,
    f.realname ? personNameLike(report.cusercode, f.realname) : undefined,
    ...(f.quotas ?? []).map(
      (q) =>
        sql`exists (select 1 from ${assessmentIndicator} where ${and(
          eq(assessmentIndicator.assessid, report.assessid),
          eq(assessmentIndicator.formcode, q.formcode),
          eq(assessmentIndicator.code, q.quotacode),
          inArray(assessmentIndicator.level, q.levels),
        )})`,
    ),
  )!;
}
