import { asc, eq, sql } from 'drizzle-orm';
import type { ReportDetail } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { reportDetail } from './reports.js';
import { report, reportComment } from './tables.js';
import { writtenReport } from './written/tables.js';

/**
 * A person's rights over their record (issue 30 §5), the reports domain's part: every report in
 * the export, and what staff wrote about the person erased.
 */

/** Every report of a person in the caller's scope, oldest first, as as.m.exam.getCUserReport answers each. */
export async function reportRecordsOfPerson(ctx: Ctx, cusercode: string): Promise<ReportDetail[]> {
  const rows = await ctx.db
    .select({ assessid: report.assessid })
    .from(report)
    .where(eq(report.cusercode, cusercode))
    .orderBy(asc(report.createdat), asc(report.assessid));
  const out: ReportDetail[] = [];
  for (const r of rows) out.push(await reportDetail(ctx, r.assessid));
  return out;
}

/**
 * Erases staff comments on a person's reports (words about them; who commented and when stay) and
 * removes their written reports (prose about them, rebuilt from the reports on demand).
 */
export async function eraseReportTextOfPerson(tx: DbOrTx, cusercode: string): Promise<void> {
  await tx
    .update(reportComment)
    .set({ comment: '' })
    .where(sql`${reportComment.assessid} in (select ${report.assessid} from ${report} where ${report.cusercode} = ${cusercode})`);
  await tx.delete(writtenReport).where(eq(writtenReport.cusercode, cusercode));
}
