import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Caller, Ctx } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { assertInScope, inScope, scopeWhere } from '../auth/index.js';
import { examCategory, examStage, muserStage, plan, planAuthorize } from './tables.js';

/** Stages a caller may read: owned in its scope, or given to an institution of its scope. */
export function stageReadable(db: DbOrTx, caller: Caller): SQL {
  const given = db.select({ stagecode: muserStage.stagecode }).from(muserStage).where(scopeWhere(muserStage.musercode, caller));
  return or(scopeWhere(examStage.musercode, caller), inArray(examStage.stagecode, given))!;
}

/** Plans a caller may read: owned in its scope, or authorised to an institution of its scope. */
export function planReadable(db: DbOrTx, caller: Caller): SQL {
  const granted = db.select({ plancode: planAuthorize.plancode }).from(planAuthorize).where(scopeWhere(planAuthorize.musercode, caller));
  return or(scopeWhere(plan.musercode, caller), inArray(plan.plancode, granted))!;
}

/** A stage the caller may read; `write` demands that its owner is in the caller's scope. */
export async function findStage(ctx: Ctx, db: DbOrTx, stagecode: string, write: boolean) {
  const [row] = await db.select().from(examStage).where(and(eq(examStage.stagecode, stagecode), stageReadable(db, ctx.me)));
  if (!row) return notFound({ zh: `阶段不存在：${stagecode}`, en: `No such stage: ${stagecode}` });
  if (write) assertInScope(ctx.me, row.musercode);
  return row;
}

/**
 * A stage as a filter of reports or statistics: one the caller may read, or one its own reports
 * carry (`used`). Reports keep their stage when the stage was never given to the institution or
 * was taken back (the employer's reports in a provider's stage, issue 28): narrowing to a stage
 * the caller's own lists offer must work. Any other stage is "not found", as findStage says.
 */
export async function findFilterStage(ctx: Ctx, db: DbOrTx, stagecode: string, used: () => Promise<boolean>) {
  const [row] = await db.select({ stagecode: examStage.stagecode }).from(examStage).where(and(eq(examStage.stagecode, stagecode), stageReadable(db, ctx.me)));
  if (row || (await used())) return;
  notFound({ zh: `阶段不存在：${stagecode}`, en: `No such stage: ${stagecode}` });
}

/** A plan the caller may read; `write` demands that its owner is in the caller's scope. */
export async function findPlan(ctx: Ctx, db: DbOrTx, plancode: string, write: boolean) {
  const [row] = await db.select().from(plan).where(and(eq(plan.plancode, plancode), planReadable(db, ctx.me)));
  if (!row) return notFound({ zh: `计划不存在：${plancode}`, en: `No such plan: ${plancode}` });
  if (write) assertInScope(ctx.me, row.musercode);
  return row;
}

export const editable = (caller: Caller, musercode: string) => inScope(caller, musercode);

export const categoryNameIn = (lang: Lang): SQL<string> =>
  lang === 'en-US' ? sql<string>`${examCategory.categorynameen}` : sql<string>`${examCategory.categoryname}`;

/** How many plans an account owns (an account with plans cannot be deleted). */
export async function accountPlanCount(db: DbOrTx, musercode: string): Promise<number> {
  return Number(await db.$count(plan, eq(plan.musercode, musercode)));
}

/** The stages an institution may offer: its own and those given to it, with their app. */
export async function stagesOfAccount(db: DbOrTx, musercode: string): Promise<{ stagecode: string; appid: string }[]> {
  const given = db.select({ stagecode: muserStage.stagecode }).from(muserStage).where(eq(muserStage.musercode, musercode));
  return db
    .select({ stagecode: examStage.stagecode, appid: examStage.appid })
    .from(examStage)
    .where(or(eq(examStage.musercode, musercode), inArray(examStage.stagecode, given)));
}
