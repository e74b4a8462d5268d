import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { z } from 'zod';
import type { reportComment as reportCommentSchema, reportTrendPoint } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { iso } from '../../kit/index.js';
import { accountNames } from '../accounts/index.js';
import { changeBasisOf, changesAlong } from '../scales/index.js';
import { staffNames } from '../system/index.js';
import { assessmentIndicator, report, reportComment } from './tables.js';

/** A report's staff comments, oldest first, with the writer's name (staff user, else the account). */
export async function commentsOf(db: DbOrTx, reportid: string): Promise<z.infer<typeof reportCommentSchema>[]> {
  const rows = await db
    .select()
    .from(reportComment)
    .where(eq(reportComment.assessid, reportid))
    .orderBy(asc(reportComment.createdat), asc(reportComment.commentid));
  const [staff, accounts] = await Promise.all([
    staffNames(
      db,
      rows.flatMap((r) => (r.userid ? [r.userid] : [])),
    ),
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
  ]);
  return rows.map((r) => ({
    commentid: r.commentid,
    comment: r.comment,
    userid: r.userid ?? r.musercode,
    username: (r.userid ? staff.get(r.userid) : accounts.get(r.musercode)) ?? '',
    createdat: iso(r.createdat),
  }));
}

/** The person's results on the report's form up to and including it, oldest first (the trend). */
export async function trendOf(
  db: DbOrTx,
  row: { cusercode: string | null; formcode: string; createdat: Date },
): Promise<z.infer<typeof reportTrendPoint>[]> {
  if (!row.cusercode) return [];
  const reports = await db
    .select({
      reportid: report.assessid,
      createdat: report.createdat,
      version: report.version,
      mentalstate: report.mentalstate,
    })
    .from(report)
    .where(and(eq(report.cusercode, row.cusercode), eq(report.formcode, row.formcode), lte(report.createdat, row.createdat)))
    .orderBy(asc(report.createdat), asc(report.assessid));
  const indicators = reports.length
    ? await db
        .select()
        .from(assessmentIndicator)
        .where(
          inArray(
            assessmentIndicator.assessid,
            reports.map((r) => r.reportid),
          ),
        )
        .orderBy(asc(assessmentIndicator.code))
    : [];
  const points = reports.map((r) => ({
    reportid: r.reportid,
    createdat: iso(r.createdat),
    version: r.version,
    mentalstate: r.mentalstate,
    indicators: indicators
      .filter((i) => i.assessid === r.reportid)
      .map((i) => ({ quotacode: i.code, score: i.score, level: i.level, colour: i.colour })),
  }));
  // Reliable change between consecutive points (issue 31 §3), on the indicator the form's norm names.
  const basis = await changeBasisOf(db, row.formcode);
  const changes = changesAlong(
    basis,
    points.map((p) => p.indicators.find((i) => i.quotacode === basis?.rule.code)?.score ?? null),
  );
  return points.map((p, i) => ({ ...p, change: changes[i] ?? null }));
}
