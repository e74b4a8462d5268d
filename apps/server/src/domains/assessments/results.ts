import { and, count, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { assessCode, assessment } from './tables.js';

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

export interface CodeState {
  status: 'issued' | 'started' | 'finished';
  startedat: Date | null;
  finishedat: Date | null;
}

/** Where given codes stand (the group tasks' progress); codes withdrawn since are absent. */
export async function codeStates(db: DbOrTx, assesscodes: string[]): Promise<Map<string, CodeState>> {
  const out = new Map<string, CodeState>();
  for (let i = 0; i < assesscodes.length; i += 5000) {
    const rows = await db
      .select({ assesscode: assessCode.assesscode, status: assessCode.status, startedat: assessCode.startedat, finishedat: assessCode.finishedat })
      .from(assessCode)
      .where(inArray(assessCode.assesscode, assesscodes.slice(i, i + 5000)));
    for (const { assesscode, ...r } of rows) out.set(assesscode, r as CodeState);
  }
  return out;
}
