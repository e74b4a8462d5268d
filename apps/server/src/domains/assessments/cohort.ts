import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { assessCode } from './tables.js';

/**
 * Given assessments of a group by their state (issued, started, finished), per group: the cohort
 * is a subquery answering `(assesscode, grp)` (the group report of a task: tasks/group-report).
 */
export async function cohortCodeStates(db: DbOrTx, cohort: SQL): Promise<{ grp: string; status: string; n: number }[]> {
  const result = await db.execute(
    sql`select c.grp, k.status, count(*)::int as n from (${cohort}) c join ${assessCode} k on k.assesscode = c.assesscode group by c.grp, k.status`,
  );
  return (result as unknown as { rows: { grp: string; status: string; n: number }[] }).rows.map((r) => ({ grp: String(r.grp), status: r.status, n: Number(r.n) }));
}
