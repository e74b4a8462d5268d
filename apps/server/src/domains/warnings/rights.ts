import { asc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { caseDetail } from './case-actions.js';
import { caseEvent, followUp, warnCase, warning } from './tables.js';

/**
 * A person's rights over their record (issue 30 §5), the warnings domain's part: its cases in the
 * export, its free text in an erasure, and its activity for the retention period.
 */

/** Every case of a person (open or closed, oldest first) with warnings, events and follow-ups. */
export async function caseRecordsOfPerson(ctx: Ctx, cusercode: string) {
  const cases = await ctx.db.select().from(warnCase).where(eq(warnCase.cusercode, cusercode)).orderBy(asc(warnCase.openedat), asc(warnCase.caseid));
  const out = [];
  for (const c of cases) out.push(await caseDetail(ctx, c));
  return out;
}

/** Events whose note holds an id (a warning, a follow-up, an assigned staff user), not words about the person. */
const ID_NOTES = ['warning', 'followup', 'assign'];

/**
 * Erases what staff wrote about a person in words (case and closing notes, event notes, follow-up
 * records, a manual warning's reason): it may name or describe them. Cases, levels, states, dates
 * and outcomes stay, so the warning statistics stay true. Answers how many cases were touched.
 */
export async function eraseCaseTextOfPerson(tx: DbOrTx, cusercode: string): Promise<number> {
  const cases = await tx.update(warnCase).set({ note: '' }).where(eq(warnCase.cusercode, cusercode)).returning({ caseid: warnCase.caseid });
  const ids = cases.map((c) => c.caseid);
  if (!ids.length) return 0;
  await tx
    .update(caseEvent)
    .set({ note: '' })
    .where(sql`${inArray(caseEvent.caseid, ids)} and ${notInArray(caseEvent.what, ID_NOTES)}`);
  await tx.update(followUp).set({ content: '' }).where(eq(followUp.cusercode, cusercode));
  await tx
    .update(warning)
    .set({ params: sql`jsonb_set(${warning.params}, '{note}', '""')` })
    .where(sql`${warning.cusercode} = ${cusercode} and ${warning.params} ->> 'note' is not null`);
  return ids.length;
}

/**
 * SQL: the person in `column` has case activity since `since` (a warning raised, any change or
 * follow-up of a case), or a case not closed (never erased while someone looks after them).
 */
export const caseActivitySince = (column: AnyPgColumn, since: Date): SQL =>
  sql`${column} in (select ${warnCase.cusercode} from ${warnCase} where ${warnCase.state} <> 'closed' or ${warnCase.lastwarningat} >= ${since.toISOString()}::timestamptz
    or exists (select 1 from ${caseEvent} where ${caseEvent.caseid} = ${warnCase.caseid} and ${caseEvent.at} >= ${since.toISOString()}::timestamptz))`;
