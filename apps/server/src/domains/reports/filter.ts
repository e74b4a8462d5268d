import { and, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ReportFilter } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import { ownedBy, accountInRegion, isRegionAuthority, statsAccounts } from '../accounts/index.js';
import { livingPerson, personInScope, personNameLike, personOfGender } from '../persons/index.js';
import { findFilterStage, findPlan } from '../plans/index.js';
import { assertFormsReadable } from '../scales/index.js';
import { abnormalReport, countedReport } from '../statistics/index.js';
import { givenToClass, teamInScope } from '../tasks/index.js';
// eslint-disable-next-line no-restricted-imports -- issue 29: kept; reports pages, filters and sorts the report rows (the assessment table) in one statement each
import { assessment } from '../assessments/tables.js';
import { assessmentIndicator } from './tables.js';

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
 * The report filter as a where clause on `assessment`: the ONE translation the list, the exports
 * and any other action taking `reportFilter` use, so a file holds exactly what the list shows.
 * A named institution, plan, stage, form or person outside the caller's scope is "not found"
 * (thrown here), never an empty result. Only reports of living persons are included.
 */
export async function reportFilterWhere(ctx: Ctx, f: ReportFilterInput, over?: { accounts: string[] | null }): Promise<SQL> {
  // `over`: the accounts an aggregate covers instead of the caller's scope (statsAccounts).
  const owners = over
    ? over.accounts
      ? inArray(assessment.musercode, over.accounts.length ? over.accounts : [''])
      : undefined
    : ownedBy(ctx, assessment.musercode, f.musercode || undefined);
  if (f.cusercode) await personInScope(ctx, ctx.db, f.cusercode);
  if (f.plancode) await findPlan(ctx, ctx.db, f.plancode, false);
  if (f.stagecode) {
    const stagecode = f.stagecode;
    await findFilterStage(ctx, ctx.db, stagecode, async () => {
      const [used] = await ctx.db
        .select({ one: sql`1` })
        .from(assessment)
        .where(and(eq(assessment.stagecode, stagecode), over ? owners : ownedBy(ctx, assessment.musercode, undefined)))
        .limit(1);
      return !!used;
    });
  }
  if (f.teamid) await teamInScope(ctx, ctx.db, f.teamid);
  const forms = [...new Set([f.formcode, ...(f.quotas ?? []).map((q) => q.formcode)].filter((x): x is string => !!x))];
  if (forms.length) await assertFormsReadable(ctx.db, ctx.me, forms);
  return and(
    isNotNull(assessment.cusercode),
    livingPerson(assessment.cusercode),
    owners,
    f.appid ? eq(assessment.appid, f.appid) : undefined,
    f.plancode ? eq(assessment.plancode, f.plancode) : undefined,
    f.stagecode ? eq(assessment.stagecode, f.stagecode) : undefined,
    f.formcode ? eq(assessment.formcode, f.formcode) : undefined,
    f.cusercode ? eq(assessment.cusercode, f.cusercode) : undefined,
    f.level !== undefined ? eq(assessment.level, f.level) : undefined,
    f.mentalstate !== undefined ? eq(assessment.mentalstate, f.mentalstate) : undefined,
    f.warning !== undefined ? eq(assessment.warning, f.warning) : undefined,
    f.hidden !== undefined ? eq(assessment.hidden, f.hidden) : undefined,
    f.counted !== undefined ? countedReport(assessment, f.counted) : undefined,
    f.abnormal !== undefined ? abnormalReport(assessment.mentalstate, f.abnormal) : undefined,
    accountInRegion(assessment.musercode, f),
    f.gender ? personOfGender(assessment.cusercode, f.gender) : undefined,
    f.teamid || f.grade ? givenToClass(assessment.assesscode, { teamid: f.teamid || undefined, grade: f.grade || undefined }) : undefined,
    f.startdate ? gte(assessment.createdat, chinaMidnight(f.startdate)) : undefined,
    f.enddate ? lt(assessment.createdat, chinaMidnight(f.enddate, 1)) : undefined,
    f.realname ? personNameLike(assessment.cusercode, f.realname) : undefined,
    ...(f.quotas ?? []).map(
      (q) =>
        sql`exists (select 1 from ${assessmentIndicator} where ${and(
          eq(assessmentIndicator.assessid, assessment.assessid),
          eq(assessmentIndicator.formcode, q.formcode),
          eq(assessmentIndicator.code, q.quotacode),
          inArray(assessmentIndicator.level, q.levels),
        )})`,
    ),
  )!;
}
