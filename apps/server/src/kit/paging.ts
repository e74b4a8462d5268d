import { count, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/database.js';

/** The paging fields of list inputs (the contract's `pageFields`): page from 1, size capped. */
export interface PageInput {
  page: number;
  pageSize: number;
}

/** The shape of the contract's list outputs (`pageOf(row)`). */
export interface Paged<R> {
  total: number;
  rows: R[];
}

/** Rows to skip before a page. */
export const offsetOf = ({ page, pageSize }: PageInput): number => (page - 1) * pageSize;

/**
 * One page of a query, and how many rows the whole query has. `query` is the list's select with
 * its joins and where clause, made dynamic (`db.select(...).from(...).where(...).$dynamic()`),
 * without order or limit; `orderBy` must end in a unique column so that pages never overlap.
 *
 * The total counts the same query (as a subquery), so it always agrees with the rows. Map the
 * rows to the contract's row shape afterwards: `{ total, rows: rows.map(toRow) }`.
 */
export async function paged<Q extends PgSelect>(db: DbOrTx, query: Q, orderBy: (PgColumn | SQL | SQL.Aliased)[], page: PageInput): Promise<Paged<Awaited<Q>[number]>> {
  // Counted first: a dynamic query builder changes in place when ordered and limited below.
  const [counted] = await db.select({ n: count() }).from(sql`(${query.getSQL()}) as paged`);
  const rows: Awaited<Q> = await query.orderBy(...orderBy).limit(page.pageSize).offset(offsetOf(page));
  return { total: Number(counted?.n ?? 0), rows };
}

/** One page of a list already in memory (e.g. merged from two queries and sorted in code). */
export function pageOfArray<R>(all: R[], page: PageInput): Paged<R> {
  return { total: all.length, rows: all.slice(offsetOf(page), offsetOf(page) + page.pageSize) };
}

/** How many rows of a table match (e.g. "is this row still used?" before a delete). */
export async function countRows(db: DbOrTx, table: PgTable, where?: SQL): Promise<number> {
  return Number(await db.$count(table, where));
}
