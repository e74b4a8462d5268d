import { createHash } from 'node:crypto';
import pg from 'pg';
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import * as schema from '../../domains/schema.js';
import type { Db } from '../../db/database.js';

/**
 * Tables a refused call legitimately appends to: the audit log records the refusal (and its
 * chain head, audit_chain, moves to that entry), the session table its last-seen time,
 * login_attempt the sign-ins. Everything else must stay byte-identical.
 */
export const VOLATILE_TABLES = ['audit_log', 'audit_chain', 'session', 'login_attempt', 'code_attempt'];

/** Every table of the Drizzle schema, so a table added later is fingerprinted without a change here. */
export const allTables = (): string[] =>
  [
    ...new Set(
      Object.values(schema)
        .filter((v) => is(v, PgTable))
        .map((t) => getTableName(t as PgTable)),
    ),
  ].sort();

export type Fingerprint = Record<string, string>;

const rowsOf = (res: unknown): Record<string, unknown>[] =>
  (res as { rows?: Record<string, unknown>[] }).rows ?? (res as Record<string, unknown>[]);

/**
 * Runs one of the prints below: on PostgreSQL as a named statement, planned once per connection
 * (planning the union of every table was about 8 ms of a fingerprint's 26, and the sweeps take
 * thousands), on PGlite as it is.
 */
async function query(db: Db, text: string): Promise<Record<string, unknown>[]> {
  const client = (db as unknown as { $client: unknown }).$client;
  if (!(client instanceof pg.Pool)) return rowsOf(await db.execute(sql.raw(text)));
  const name = `sweep_print_${createHash('md5').update(text).digest('hex')}`;
  return (await client.query({ name, text })).rows as Record<string, unknown>[];
}

/** One query of a SELECT for each non-volatile table of the schema, their rows in table order. */
const everyTable = (db: Db, exclude: string[], part: (table: string) => string) =>
  query(
    db,
    allTables()
      .filter((t) => !exclude.includes(t))
      .map(part)
      .join(' UNION ALL '),
  );

/** Row count and an order-independent hash (the sum of the rows' 64-bit hashes, no sort) of every non-volatile table, in one query. */
export async function fingerprint(db: Db, exclude: string[] = VOLATILE_TABLES): Promise<Fingerprint> {
  const rows = await everyTable(
    db,
    exclude,
    (t) => `SELECT '${t}' AS t, count(*)::int AS n, coalesce(sum(hashtextextended(x::text, 0)::numeric), 0)::text AS h FROM "${t}" x`,
  );
  return Object.fromEntries(rows.map((r) => [String(r.t), `${r.n}:${r.h}`]));
}

/**
 * A cheap mark of every non-volatile table's rows (count and the sum of their creating
 * transactions' ids), in one query: every committed insert, update or delete moves it, as an
 * update writes a new row version under a new id. It cannot say what changed, nor that a change
 * left the content as it was (fingerprint can), but it is several times cheaper: enough to know
 * that nothing was written since it was taken.
 */
export async function writeMark(db: Db, exclude: string[] = VOLATILE_TABLES): Promise<string> {
  const rows = await everyTable(
    db,
    exclude,
    (t) => `SELECT count(*)::bigint AS n, coalesce(sum(xmin::text::bigint), 0)::bigint AS x FROM "${t}"`,
  );
  return rows.map((r) => `${r.n}:${r.x}`).join(',');
}

/** Tables whose fingerprint differs; empty when nothing changed. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((t) => before[t] !== after[t]).sort();
}

/**
 * What a write of institution `owner` may never change, whatever extra fields it carries: the
 * rows of every other institution (tables with a musercode column), the ownership and state
 * columns of every account, and every account's permission codes (the owner's own included).
 */
export async function ownershipPrint(db: Db, owner: string): Promise<Fingerprint> {
  const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
  const parts: string[] = [];
  for (const t of tables) {
    const name = getTableName(t);
    if (VOLATILE_TABLES.includes(name)) continue;
    if (!getTableConfig(t).columns.some((c) => c.name === 'musercode')) continue;
    parts.push(
      `SELECT '${name}' AS t, count(*)::int AS n, coalesce(md5(string_agg(md5(x::text), '' ORDER BY md5(x::text))), '') AS h FROM "${name}" x` +
        (name === 'muser_permission' ? '' : ` WHERE x.musercode IS DISTINCT FROM '${owner.replace(/'/g, "''")}'`),
    );
  }
  parts.push(
    `SELECT 'muser (ownership and state)' AS t, count(*)::int AS n, coalesce(md5(string_agg(concat_ws('|', musercode, parentcode, musertype, issuper, enabled, username), ',' ORDER BY musercode)), '') AS h FROM muser`,
  );
  const rows = await query(db, parts.join(' UNION ALL '));
  return Object.fromEntries(rows.map((r) => [String(r.t), `${r.n}:${r.h}`]));
}

/** Row count of every non-volatile table, in one query. */
export async function rowCounts(db: Db, exclude: string[] = VOLATILE_TABLES): Promise<Record<string, number>> {
  const rows = await everyTable(db, exclude, (t) => `SELECT '${t}' AS t, count(*)::int AS n FROM "${t}"`);
  return Object.fromEntries(rows.map((r) => [String(r.t), Number(r.n)]));
}
