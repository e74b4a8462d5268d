import { and, eq, not, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * What the statistics count, as conditions on a report's own columns, for the report list that a
 * chart opens. The read model's triggers hold the same rule (stats_refresh in migrations 0014
 * and 0020: `a.hidden = 0 AND a.voided = 0`, abnormal `a.mentalstate BETWEEN 2 AND 4`; the
 * person living is the report filter's own rule); report-links.test.ts checks both agree.
 */
export function countedReport(r: { hidden: AnyPgColumn; voided: AnyPgColumn }, counted: 0 | 1): SQL {
  const rule = and(eq(r.hidden, 0), eq(r.voided, 0))!;
  return counted ? rule : not(rule);
}

/** Overall mental state 2 (mild), 3 (moderate) or 4 (severe emotional problem, SPEC §3). */
export function abnormalReport(mentalstate: AnyPgColumn, abnormal: 0 | 1): SQL {
  const rule = sql`${mentalstate} between 2 and 4`;
  return abnormal ? rule : not(rule);
}
