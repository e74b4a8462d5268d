import { count, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
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

/** The key under which paged() adds the total to the selected fields (no table has such a column). */
const TOTAL = '__paged_total';

/**
 * One page of a query, and how many rows the whole query has. `query` is the list's select with
 * its joins and where clause, made dynamic (`db.select(...).from(...).where(...).$dynamic()`),
 * without order or limit; `orderBy` must end in a unique column so that pages never overlap.
 *
 * One statement, one round trip: the total is a column of the page, a scalar subquery counting the
 * same query (so it always agrees with the rows). PostgreSQL runs it once (an InitPlan), so the
 * count and the page keep the plans they had as two statements (the page's top-N sort too, which a
 * window count would turn into a full sort). Only a page past the end has no row to carry the
 * total: then it is counted on its own. Map the rows to the contract's row shape afterwards:
 * `{ total, rows: rows.map(toRow) }`. A hot list is better served by statementsByShape (prepared.ts) and pageThrough.
 */
export async function paged<Q extends PgSelect>(
  db: DbOrTx,
  query: Q,
  orderBy: (PgColumn | SQL | SQL.Aliased)[],
  page: PageInput,
): Promise<Paged<Awaited<Q>[number]>> {
  // The rows to count as the caller wrote them (a dynamic builder changes in place when ordered below).
  const base = query.getSQL();
  // drizzle has no public way to add a selected field to a built query; its fields are in config.
  const fields = (query as unknown as { config: { fields: Record<string, unknown> } }).config.fields;
  fields[TOTAL] = sql<number>`(select count(*) from (${base}) as paged)`.mapWith(Number);
  const found = await query.orderBy(...orderBy).limit(page.pageSize).offset(offsetOf(page));
  if (!found.length) {
    const [counted] = page.page > 1 ? await db.select({ n: count() }).from(sql`(${base}) as paged`) : [];
    return { total: Number(counted?.n ?? 0), rows: found };
  }
  const total = Number((found[0] as Record<string, unknown>)[TOTAL]);
  return { total, rows: found.map(({ [TOTAL]: _, ...row }) => row) as Awaited<Q> };
}

/** A page's prepared statements: the rows with the total on each, and the count alone. */
export interface PageStatements<R> {
  rows: { execute(values: Record<string, unknown>): Promise<(R & { total: number })[]> };
  count: { execute(values: Record<string, unknown>): Promise<{ n: number }[]> };
}

/** The total as a column of the page: a scalar subquery of the count, which PostgreSQL runs once. */
export const totalColumn = (matching: SQLWrapper) => sql<number>`(${matching})`.mapWith(Number);

/**
 * One page through a list's prepared statements (`limit` and `offset` placeholders; the total rides
 * on every row, so one round trip). Only a page past the end has no row to carry the total: then it
 * is counted on its own.
 */
export async function pageThrough<R>(statements: PageStatements<R>, values: Record<string, unknown>, page: PageInput): Promise<Paged<R>> {
  const bound = { ...values, limit: page.pageSize, offset: offsetOf(page) };
  const found = await statements.rows.execute(bound);
  if (!found.length) return { total: page.page > 1 ? Number((await statements.count.execute(bound))[0]?.n ?? 0) : 0, rows: [] };
  return { total: Number(found[0]!.total), rows: found.map(({ total: _, ...row }) => row as R) };
}

/** One page of a list already in memory (e.g. merged from two queries and sorted in code). */
export function pageOfArray<R>(all: R[], page: PageInput): Paged<R> {
  return { total: all.length, rows: all.slice(offsetOf(page), offsetOf(page) + page.pageSize) };
}

/** How many rows of a table match (e.g. "is this row still used?" before a delete). */
export async function countRows(db: DbOrTx, table: PgTable, where?: SQL): Promise<number> {
  return Number(await db.$count(table, where));
}
