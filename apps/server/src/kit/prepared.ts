import { createHash } from 'node:crypto';
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgPreparedQuery, type AnyPgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/database.js';

/** What drizzle keeps of a database or transaction: its driver's client (a pool, a pooled connection, PGlite or its transaction). */
interface Session {
  client: object;
}
const sessionOf = (db: DbOrTx) => (db as unknown as { session: Session }).session;

/**
 * Statements as built on one database, run on another (or on a transaction): drizzle's prepared
 * query holds nothing of its database but the driver's client it sends to, so the same statement
 * with the other client. One level deep: a statement, or an object of statements (`{ rows, count }`).
 */
function boundTo<P>(built: P, client: object): P {
  const bind = (q: unknown) => (q instanceof PgPreparedQuery ? Object.create(q, { client: { value: client } }) : q);
  if (built instanceof PgPreparedQuery || !built || typeof built !== 'object') return bind(built) as P;
  return Object.fromEntries(Object.entries(built).map(([k, v]) => [k, bind(v)])) as P;
}

interface Built<P> {
  statements: P;
  client: object;
  /** The statements bound to each other client they were asked for (a pooled connection is asked again and again). */
  bound: WeakMap<object, P>;
}

/**
 * Prepared statements, one set per shape of request (a list's: which filters it sets, its language;
 * what changes the SQL, never the values), built once per process and driver. The values
 * are parameters, so a request builds no SQL (drizzle's building was most of a list's own CPU) and
 * PostgreSQL parses and plans each shape once per connection. `build` makes the statements of one
 * shape, named `name` (unique per shape: a connection refuses one name for two texts). They run on
 * any database or transaction of the same driver (the read replica, a submission's transaction).
 * Shapes are few in practice; past MAX_SHAPES the oldest is dropped here (and built again if asked).
 *
 *   const listOf = statementsByShape('forms_list', (db, shape: Shape, name) => ({ rows: …prepare(name), count: …prepare(`${name}_n`) }));
 *   const { total, rows } = await pageThrough(listOf(ctx.readDb, shape), values, page);
 */
export function statementsByShape<S extends object, P>(
  prefix: string,
  build: (db: DbOrTx, shape: S, name: string) => P,
): (db: DbOrTx, shape: S) => P {
  // Per driver (node-postgres or PGlite: their statements are of different classes), per shape.
  const byDriver = new Map<unknown, Map<string, Built<P>>>();
  return (db, shape) => {
    const session = sessionOf(db);
    let shapes = byDriver.get(session.constructor);
    if (!shapes) byDriver.set(session.constructor, (shapes = new Map()));
    const key = JSON.stringify(shape);
    let built = shapes.get(key);
    if (!built) {
      if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
      const name = `${prefix}_${createHash('sha1').update(key).digest('hex').slice(0, 16)}`;
      shapes.set(key, (built = { statements: build(db, shape, name), client: session.client, bound: new WeakMap() }));
    }
    if (session.client === built.client) return built.statements;
    let bound = built.bound.get(session.client);
    if (!bound) built.bound.set(session.client, (bound = boundTo(built.statements, session.client)));
    return bound;
  };
}
const MAX_SHAPES = 256;

/**
 * One statement of a fixed shape, built once (a hot statement of a hot path: the respondent's
 * steps). Its values are placeholders (`sql.placeholder('x')`), given to `execute`.
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
    build(db, shape as unknown as S, name, (column) =>
      one ? sql`${column} = ${sql.placeholder('keys')}` : sql`${column} = any(${sql.placeholder('keys')})`,
    ),
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

/** An insert's row of placeholders, one per column, named `column_i` (the i-th row of the statement). */
export function placeholderRow<K extends string>(columns: readonly K[], i = 0): Record<K, Placeholder> {
  const names = placeholderNames(columns, i);
  return Object.fromEntries(columns.map((c, j) => [c, sql.placeholder(names[j]!)])) as Record<K, Placeholder>;
}

/** The values of placeholderRow's rows: every column of every row, null where a row has none. */
export function rowValues<K extends string>(columns: readonly K[], rows: readonly Partial<Record<K, unknown>>[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    const names = placeholderNames(columns, i);
    columns.forEach((c, j) => (values[names[j]!] = row[c] ?? null));
  });
  return values;
}

/** The placeholders' names of row i, made once (a name built per value was a hundredth of a submission's CPU). */
function placeholderNames(columns: readonly string[], i: number): string[] {
  let rows = namesOf.get(columns);
  if (!rows) namesOf.set(columns, (rows = []));
  return (rows[i] ??= columns.map((c) => `${c}_${i}`));
}
const namesOf = new WeakMap<readonly string[], string[][]>();

/** The most rows an insert of preparedRows holds in one prepared statement; more go in one built afresh. */
const PREPARED_ROWS = 16;

/**
 * An insert of a request's few rows of `columns` (every one given, none left to its default),
 * through a statement prepared per number of rows: the audit log's batches, a report's indicators.
 * More than 16 rows go in one statement built for them.
 */
export function preparedRows<T extends PgTable, K extends keyof T['$inferInsert'] & string>(
  prefix: string,
  table: T,
  columns: readonly K[],
): (db: DbOrTx, rows: readonly Pick<T['$inferInsert'], K>[]) => Promise<void> {
  const bySize = statementsByShape(prefix, (db, { n }: { n: number }, name) =>
    db
      .insert(table)
      .values(Array.from({ length: n }, (_, i) => placeholderRow(columns, i)) as T['$inferInsert'][])
      .prepare(name),
  );
  return async (db, rows) => {
    if (!rows.length) return;
    // The same rows as the prepared path sends: every column given, null where a row has none.
    if (rows.length > PREPARED_ROWS)
      await db.insert(table).values(rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null]))) as T['$inferInsert'][]);
    else await bySize(db, { n: rows.length }).execute(rowValues(columns, rows));
  };
}
