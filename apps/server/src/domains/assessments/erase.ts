import { count, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { assessCode, assessment } from './tables.js';

/**
 * Removing everything a person answered, for persons who should never have been registered (an
 * undone burst of QR-link entries, issue 27 item 4). Reports are otherwise never deleted (a
 * person's deletion keeps them); here they are junk that would skew statistics and lists. The
 * statistics triggers subtract them in the same transaction.
 */

const PART = 5000;

/** How many reports the persons have. */
export async function resultCountOfPersons(db: DbOrTx, cusercodes: string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < cusercodes.length; i += PART) {
    const [row] = await db
      .select({ n: count() })
      .from(assessment)
      .where(inArray(assessment.cusercode, cusercodes.slice(i, i + PART)));
    n += Number(row?.n ?? 0);
  }
  return n;
}

/**
 * Removes the persons' reports (with their indicators and staff comments, by foreign key) and
 * their codes (with saved progress and respondent sessions: a respondent still on the page is
 * signed out). Answers how many reports went.
 */
export async function removeResultsOfPersons(tx: DbOrTx, cusercodes: string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < cusercodes.length; i += PART) {
    const part = cusercodes.slice(i, i + PART);
    n += (await tx.delete(assessment).where(inArray(assessment.cusercode, part)).returning({ id: assessment.assessid })).length;
    await tx.delete(assessCode).where(inArray(assessCode.cusercode, part));
  }
  return n;
}
