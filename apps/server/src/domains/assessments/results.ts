import { and, count, eq, inArray, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { assessment } from './tables.js';

/**
 * What other domains may ask about completed assessments (DESIGN §4: through functions, not the
 * table). The scale library asks before changing or deleting a form: a version with results is
 * frozen, and a form with results cannot be deleted.
 */

/** How many results a form has, in one version or in all of them. */
export async function resultCount(db: DbOrTx, formcode: string, version?: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(assessment)
    .where(and(eq(assessment.formcode, formcode), version === undefined ? undefined : eq(assessment.version, version)));
  return Number(row?.n ?? 0);
}

/** Results of a form per version (versions without results are absent). */
export async function resultCountsByVersion(db: DbOrTx, formcode: string): Promise<Map<number, number>> {
  const rows = await db.select({ version: assessment.version, n: count() }).from(assessment).where(eq(assessment.formcode, formcode)).groupBy(assessment.version);
  return new Map(rows.map((r) => [r.version, Number(r.n)]));
}

/** How many results an institution holds (an account with results cannot be deleted). */
export async function accountResultCount(db: DbOrTx, musercode: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(assessment).where(eq(assessment.musercode, musercode));
  return Number(row?.n ?? 0);
}

/**
 * Shows (0) or hides (1) results to their respondents (as.m.cuser.showOrHiddenReport and a team's
 * reports): the results whose ids `reportids` answers, a subquery reports writes over its `report`
 * view, so the change stays one statement. Answers how many results it changed.
 */
export async function setResultsHidden(db: DbOrTx, reportids: SQLWrapper, hidden: 0 | 1): Promise<number> {
  const changed = await db.update(assessment).set({ hidden }).where(inArray(assessment.assessid, reportids)).returning({ id: assessment.assessid });
  return changed.length;
}
