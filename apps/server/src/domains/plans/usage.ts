import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import { outerColumn, preparedForKeys, referenceRead } from '../../kit/index.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { assertFormsHaveItemText } from '../scales/index.js';
import { examStage, examStageForm, plan, planAuthorize, planForm, planStage } from './tables.js';

/**
 * What the assessment domain asks of plans when it gives one to a person (DESIGN §4: through
 * functions, not the tables): which forms a plan or one of its stages gives, whether the
 * person's institution may use the plan, and the authorised count that each given code uses.
 */

export interface PlanUse {
  plancode: string;
  planname: string;
  appid: string;
  /** The authorisation whose count the code used; null for the institution's own plan. */
  authid: string | null;
}

/** The forms a plan gives, in order; with stagecode, only that stage's (which must be the plan's). */
export async function planFormcodes(db: DbOrTx, plancode: string, stagecode?: string): Promise<string[]> {
  if (stagecode) {
    const [inPlan] = await db.select({ s: planStage.stagecode }).from(planStage).where(and(eq(planStage.plancode, plancode), eq(planStage.stagecode, stagecode)));
    if (!inPlan) notFound({ zh: '该阶段不属于此计划', en: 'The stage is not part of this plan' });
  }
  const rows = await db
    .select({ formcode: planForm.formcode })
    .from(planForm)
    .where(and(eq(planForm.plancode, plancode), stagecode ? eq(planForm.stagecode, stagecode) : undefined))
    .orderBy(asc(planForm.sort));
  return [...new Set(rows.map((r) => r.formcode))];
}

/**
 * Refuses a plan (or one of its stages) holding a form without its item text, naming the forms
 * and how staff add the licensed wording: for what gives the plan later (a group task, goods).
 */
export async function assertPlanHasItemText(db: DbOrTx, plancode: string, stagecode?: string): Promise<void> {
  await assertFormsHaveItemText(db, await planFormcodes(db, plancode, stagecode));
}

/** The forms of a stage, in order (an assessment begun through an institution's QR entry). */
export async function stageFormcodes(db: DbOrTx, stagecode: string): Promise<string[]> {
  const rows = await db.select({ formcode: examStageForm.formcode }).from(examStageForm).where(eq(examStageForm.stagecode, stagecode)).orderBy(asc(examStageForm.sort));
  return rows.map((r) => r.formcode);
}

/**
 * The plan for a code given to a person of `musercode`: its own plan costs nothing; a plan of
 * another owner needs an authorisation to that institution, current on `today` with count left,
 * and one of its count is taken here, in the caller's transaction. The take is one conditional
 * UPDATE (usedcount < count): parallel takes queue on the row and each re-checks the count, so no
 * race gets past it. Refusals say which rule failed.
 */
export async function usePlanFor(tx: DbOrTx, plancode: string, musercode: string, today: string): Promise<PlanUse> {
  const [p] = await tx.select().from(plan).where(eq(plan.plancode, plancode));
  if (!p) return notFound({ zh: `计划不存在：${plancode}`, en: `No such plan: ${plancode}` });
  if (p.enabled !== 1) invalid({ zh: `计划已停用：${p.planname}`, en: `The plan is disabled: ${p.planname}` });
  const use = { plancode, planname: p.planname, appid: p.appid };
  if (p.musercode === musercode) return { ...use, authid: null };

  const auths = await tx
    .select()
    .from(planAuthorize)
    .where(and(eq(planAuthorize.plancode, plancode), eq(planAuthorize.musercode, musercode)))
    .orderBy(asc(planAuthorize.enddate), asc(planAuthorize.authid));
  if (!auths.length) return notFound({ zh: `计划未授权给该机构：${p.planname}`, en: `The plan is not authorised to this institution: ${p.planname}` });
  for (const a of auths.filter((a) => a.startdate <= today && a.enddate >= today)) {
    const [taken] = await tx
      .update(planAuthorize)
      .set({ usedcount: sql`${planAuthorize.usedcount} + 1` })
      .where(and(eq(planAuthorize.authid, a.authid), sql`${planAuthorize.usedcount} < ${planAuthorize.count}`, lte(planAuthorize.startdate, today), gte(planAuthorize.enddate, today)))
      .returning({ authid: planAuthorize.authid });
    if (taken) return { ...use, authid: taken.authid };
  }
  if (auths.every((a) => a.enddate < today))
    return conflict({ zh: `计划授权已过期（${auths.at(-1)!.enddate}）：${p.planname}`, en: `The plan’s authorisation expired on ${auths.at(-1)!.enddate}: ${p.planname}` });
  if (auths.every((a) => a.startdate > today || a.enddate < today))
    return conflict({ zh: `计划授权尚未开始（${auths[0]!.startdate}）：${p.planname}`, en: `The plan’s authorisation starts on ${auths[0]!.startdate}: ${p.planname}` });
  return conflict({ zh: `计划授权次数已用完：${p.planname}`, en: `The plan’s authorised count is used up: ${p.planname}` });
}

/**
 * Takes `n` counts of one plan for one institution at once (the demo data: hundreds of codes in
 * one statement rather than one each); the same rule as usePlanFor, answered as the authorisation
 * used, or null when the plan is the institution's own. Refuses when no current one has room.
 */
export async function usePlanCounts(tx: DbOrTx, plancode: string, musercode: string, today: string, n: number): Promise<string | null> {
  const [p] = await tx.select({ owner: plan.musercode }).from(plan).where(eq(plan.plancode, plancode));
  if (!p) return notFound();
  if (p.owner === musercode || n === 0) return null;
  const [taken] = await tx
    .update(planAuthorize)
    .set({ usedcount: sql`${planAuthorize.usedcount} + ${n}` })
    .where(
      and(
        eq(planAuthorize.plancode, plancode),
        eq(planAuthorize.musercode, musercode),
        sql`${planAuthorize.usedcount} + ${n} <= ${planAuthorize.count}`,
        lte(planAuthorize.startdate, today),
        gte(planAuthorize.enddate, today),
      ),
    )
    .returning({ authid: planAuthorize.authid });
  return taken?.authid ?? conflict({ zh: '计划授权次数不足', en: 'The plan’s authorised count is not enough' });
}

/**
 * The dates an authorisation runs (China calendar, both inclusive) and its plan's name: a code
 * that used its count answers only inside them (issue 27 §6). Null: no such authorisation.
 */
export async function authorisationWindow(db: DbOrTx, authid: string): Promise<{ planname: string; startdate: string; enddate: string } | null> {
  const [row] = await db
    .select({ planname: plan.planname, startdate: planAuthorize.startdate, enddate: planAuthorize.enddate })
    .from(planAuthorize)
    .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
    .where(eq(planAuthorize.authid, authid));
  return row ?? null;
}

/** Gives counts back (codes withdrawn before any form was submitted); one by default. */
export async function returnPlanCount(tx: DbOrTx, authid: string, n = 1) {
  await tx
    .update(planAuthorize)
    .set({ usedcount: sql`greatest(${planAuthorize.usedcount} - ${n}, 0)` })
    .where(eq(planAuthorize.authid, authid));
}

/** Plan names by code; one plan's kept (kit/reference-reads: every respondent's sign-in names it). */
export async function planNames(db: DbOrTx, plancodes: Iterable<string>): Promise<Map<string, string>> {
  const codes = [...new Set(plancodes)].filter(Boolean);
  if (!codes.length) return new Map();
  return keptPlanNames(db, codes);
}
async function readPlanNames(db: DbOrTx, codes: string[]): Promise<Map<string, string>> {
  const rows = await namesRead(db, codes);
  return new Map(rows.map((r) => [r.plancode, r.planname]));
}
const keptPlanNames = referenceRead('plan_names', (codes: string[]) => (codes.length === 1 ? codes[0] : undefined), readPlanNames);
/** Prepared: a respondent's sign-in names the plan. */
const namesRead = preparedForKeys('plan_names', (db, name, keyIs) =>
  db.select({ plancode: plan.plancode, planname: plan.planname }).from(plan).where(keyIs(plan.plancode)).prepare(name),
);

/** A plan's and a stage's names ('' for none), as columns of another domain's query: scalar subqueries on their primary keys. */
export const planNameOf = (plancode: AnyPgColumn) =>
  sql<string>`coalesce((select ${plan.planname} from ${plan} where ${plan.plancode} = ${outerColumn(plancode)}), '')`;
export const stageNameOf = (stagecode: AnyPgColumn) =>
  sql<string>`coalesce((select ${examStage.stagename} from ${examStage} where ${examStage.stagecode} = ${outerColumn(stagecode)}), '')`;

export async function stageBriefs(db: DbOrTx, stagecodes: Iterable<string>): Promise<Map<string, { stagename: string; appid: string; musercode: string }>> {
  const codes = [...new Set(stagecodes)].filter(Boolean);
  if (!codes.length) return new Map();
  const rows = await db
    .select({ stagecode: examStage.stagecode, stagename: examStage.stagename, appid: examStage.appid, musercode: examStage.musercode })
    .from(examStage)
    .where(inArray(examStage.stagecode, codes));
  return new Map(rows.map(({ stagecode, ...r }) => [stagecode, r]));
}


export interface UsablePlan {
  plancode: string;
  planname: string;
  own: boolean;
  /** Counts left over the authorisations current on `today`; null for the institution's own plan. */
  remaining: number | null;
}

/**
 * The enabled plans an institution may give on `today` (what goods may sell): its own, and those
 * authorised to it by another owner with an authorisation current that day. Reading only: the
 * count is taken when a code is given (usePlanFor).
 */
export async function usablePlans(db: DbOrTx, musercode: string, today: string, plancode?: string): Promise<UsablePlan[]> {
  const only = plancode ? eq(plan.plancode, plancode) : undefined;
  const [own, authorised] = await Promise.all([
    db
      .select({ plancode: plan.plancode, planname: plan.planname })
      .from(plan)
      .where(and(eq(plan.musercode, musercode), eq(plan.enabled, 1), only))
      .orderBy(asc(plan.planname)),
    db
      .select({
        plancode: plan.plancode,
        planname: plan.planname,
        remaining: sql<number>`sum(${planAuthorize.count} - ${planAuthorize.usedcount})::int`,
      })
      .from(planAuthorize)
      .innerJoin(plan, eq(plan.plancode, planAuthorize.plancode))
      .where(
        and(
          eq(planAuthorize.musercode, musercode),
          sql`${plan.musercode} <> ${musercode}`,
          eq(plan.enabled, 1),
          lte(planAuthorize.startdate, today),
          gte(planAuthorize.enddate, today),
          only,
        ),
      )
      .groupBy(plan.plancode, plan.planname)
      .orderBy(asc(plan.planname)),
  ]);
  return [
    ...own.map((p) => ({ ...p, own: true, remaining: null })),
    ...authorised.map((p) => ({ ...p, own: false, remaining: Number(p.remaining) })),
  ];
}
