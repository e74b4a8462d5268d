import { createHash } from 'node:crypto';
import { count, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
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
 * `{ total, rows: rows.map(toRow) }`. A hot list is better served by statementsByShape below.
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

/**
 * A list read through prepared statements, one set per shape of request (which filters it sets, its
 * language: what changes the SQL, never the values), kept per database. The values are parameters,
 * so a request builds no SQL (drizzle's building was most of a list's own CPU) and PostgreSQL parses
 * and plans each shape once per connection. `build` makes the statements of one shape, named `name`
 * (unique per shape: a connection refuses one name for two texts). Shapes are few in practice; past
 * MAX_SHAPES the oldest is dropped here (and built again if asked).
 *
 *   const listOf = statementsByShape('forms_list', (db, shape: Shape, name) => ({ rows: …prepare(name), count: …prepare(`${name}_n`) }));
 *   const { total, rows } = await pageThrough(listOf(ctx.readDb, shape), values, page);
 */
export function statementsByShape<S extends object, P>(prefix: string, build: (db: DbOrTx, shape: S, name: string) => P): (db: DbOrTx, shape: S) => P {
  const byDb = new WeakMap<DbOrTx, Map<string, P>>();
  return (db, shape) => {
    let built = byDb.get(db);
    if (!built) byDb.set(db, (built = new Map()));
    const key = JSON.stringify(shape);
    let statements = built.get(key);
    if (!statements) {
      if (built.size >= MAX_SHAPES) built.delete(built.keys().next().value!);
      const name = `${prefix}_${createHash('sha1').update(key).digest('hex').slice(0, 16)}`;
      built.set(key, (statements = build(db, shape, name)));
    }
    return statements;
  };
}
const MAX_SHAPES = 256;

/**
 * One statement of a fixed shape, prepared once per database (a hot read of a hot path: the
 * respondent's steps). Its values are placeholders (`sql.placeholder('x')`), given to `execute`.
 *
 *   const taskNamed = preparedOnce('task_by_code', (db, name) => db.select().from(task).where(eq(task.taskcode, sql.placeholder('code'))).prepare(name));
 *   const [row] = await taskNamed(db).execute({ code });
 */
export function preparedOnce<P>(name: string, build: (db: DbOrTx, name: string) => P): (db: DbOrTx) => P {
  const one = statementsByShape(name, (db, _shape: object, hashed) => build(db, hashed));
  return (db) => one(db, {});
}

/** A condition that a column is one of a statement's keys (statementsForKeys). */
export type KeyIs = (column: AnyPgColumn) => SQL;

/**
 * A read of the rows of a list of keys, through prepared statements of each shape (as
 * statementsByShape), with the key condition written `column = $keys` for one key and `column =
 * any($keys)` for more. PostgreSQL keeps a generic plan of the first after a few runs, but plans the
 * second afresh at every run: its generic plan is costed for ten values, so a plan for the one value
 * given always looks cheaper. Respondents' steps read their person and class grade by one key each:
 * planning those took 0.6 ms of the database's CPU a student (bench:task, pg_stat_statements).
 *
 *   const briefsRead = statementsForKeys('form_briefs', (db, { lang }: { lang: Lang }, name, keyIs) => db.select(…lang…).from(form).where(keyIs(form.formcode)).prepare(name));
 *   const rows = await briefsRead(db, { lang }, codes);
 */
export function statementsForKeys<S extends object, R>(
  prefix: string,
  build: (db: DbOrTx, shape: S, name: string, keyIs: KeyIs) => { execute(values: Record<string, unknown>): Promise<R> },
): (db: DbOrTx, shape: S, keys: readonly string[]) => Promise<R> {
  const byShape = statementsByShape(prefix, (db, { one, ...shape }: S & { one: boolean }, name) =>
    build(db, shape as unknown as S, name, (column) => (one ? sql`${column} = ${sql.placeholder('keys')}` : sql`${column} = any(${sql.placeholder('keys')})`)),
  );
  return (db, shape, keys) => {
    const one = keys.length === 1;
    return byShape(db, { ...shape, one }).execute({ keys: one ? keys[0] : keys });
  };
}

/** statementsForKeys of one fixed shape (as preparedOnce is statementsByShape's): `read(db, keys)`. */
export function preparedForKeys<R>(
  name: string,
  build: (db: DbOrTx, name: string, keyIs: KeyIs) => { execute(values: Record<string, unknown>): Promise<R> },
): (db: DbOrTx, keys: readonly string[]) => Promise<R> {
  const read = statementsForKeys(name, (db, _shape: object, hashed, keyIs) => build(db, hashed, keyIs));
  return (db, keys) => read(db, {}, keys);
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
