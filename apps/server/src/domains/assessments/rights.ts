import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import { assessCode, assessment, assessProgress, respondentSession } from './tables.js';

/**
 * A person's rights over their record (issue 30 §5), the assessments domain's part: an erasure
 * removes what the person wrote in their own words and drew, and the retention period asks when
 * they last answered.
 */

/**
 * Erases the free text of a person's reports (the `text` of each answer; choices and scores stay,
 * so scores, bands and statistics are unchanged), the consent signatures of their codes, answers
 * saved in progress, and signs out any respondent session of theirs. Answers how many reports.
 */
export async function eraseAnswerTextOfPerson(tx: DbOrTx, cusercode: string): Promise<number> {
  // Only the answers change: the statistics triggers watch other columns, so no count moves.
  const reports = await tx
    .update(assessment)
    .set({
      answers: sql`(select coalesce(jsonb_agg(a.v - 'text' order by a.i), '[]'::jsonb) from jsonb_array_elements(${assessment.answers}) with ordinality as a(v, i))`,
    })
    .where(sql`${assessment.cusercode} = ${cusercode} and jsonb_typeof(${assessment.answers}) = 'array'`)
    .returning({ assessid: assessment.assessid });
  const codes = await tx.update(assessCode).set({ signature: null }).where(eq(assessCode.cusercode, cusercode)).returning({ assesscode: assessCode.assesscode });
  const ids = codes.map((c) => c.assesscode);
  if (ids.length) {
    await tx.delete(assessProgress).where(inArray(assessProgress.assesscode, ids));
    await tx.delete(respondentSession).where(inArray(respondentSession.assesscode, ids));
  }
  return reports.length;
}

/** SQL: the person in `column` has a report made since `since`. */
export const assessedSince = (column: AnyPgColumn, since: Date): SQL =>
  sql`${column} in (select ${assessment.cusercode} from ${assessment} where ${assessment.createdat} >= ${since.toISOString()}::timestamptz)`;
