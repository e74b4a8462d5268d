import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';

/**
 * One type for both engines: the queries are the same on PGlite and PostgreSQL. Drizzle is given no
 * schema: every query names its tables (imported from their domain), none uses the relational
 * `db.query` API that the schema would build, so the database layer needs to know no domain's tables.
 * The tables are gathered for migrations only (domains/schema.ts, drizzle.config.ts).
 */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<PgQueryResultHKT>;
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /**
   * Where reads that may lag may go (list pages, statistics; README "Read replica"): a second pool on
   * DATABASE_READ_URL whose connections are read-only, or `db` itself when none is configured.
   */
  readDb: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** apps/server/drizzle: two levels up from src/db, one up from the compiled dist/ (npm run build). */
export const migrationsFolder = [path.resolve(import.meta.dirname, '../../drizzle'), path.resolve(import.meta.dirname, '../drizzle')].find((dir) =>
  fs.existsSync(path.join(dir, 'meta/_journal.json')),
)!;

export interface OpenOptions {
  /** postgres://… ; when absent the embedded PGlite is used. */
  url?: string;
  /** A read replica of `url` (PostgreSQL only): a second, read-only pool. */
  readUrl?: string;
  /** Connections of each PostgreSQL pool (config DATABASE_POOL_SIZE); 10 when not given (scripts, tests' own databases). */
  poolSize?: number;
  /** Milliseconds a statement waits for a free connection (config DATABASE_POOL_WAIT_MS); for ever when not given. */
  poolWaitMs?: number;
  /** PGlite folder; absent means in memory. */
  dataDir?: string;
  /** A PGlite data dump to start from (tests load a migrated template). */
  template?: Blob;
  migrate?: boolean;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.readUrl && !opts.url) throw new Error('A read replica needs a PostgreSQL primary');
  const database = opts.url ? openPostgres(opts.url, opts.readUrl, { size: opts.poolSize ?? 10, waitMs: opts.poolWaitMs ?? 0 }) : await openPglite(opts);
  if (opts.migrate !== false) await runMigrations(database);
  return database;
}

function openPostgres(url: string, readUrl: string | undefined, limits: PoolLimits): Database {
  const primary = postgresPool(url, limits, false);
  const db = drizzlePg(primary) as unknown as Db;
  if (!readUrl) return { db, readDb: db, kind: 'postgres', close: () => primary.end() };
  const replica = postgresPool(readUrl, limits, true);
  return {
    db,
    readDb: drizzlePg(replica) as unknown as Db,
    kind: 'postgres',
    close: async () => {
      await Promise.all([primary.end(), replica.end()]);
    },
  };
}

interface PoolLimits {
  size: number;
  waitMs: number;
}

/**
 * A pool of up to `size` connections. A read-only pool's sessions start with default_transaction_read_only
 * on: a write sent to it by mistake is refused by PostgreSQL itself (SQLSTATE 25006), even on a copy
 * that is not a hot standby (which refuses every write anyway).
 *
 * A statement waits at most `waitMs` for a connection (pg-pool's connectionTimeoutMillis, which also
 * bounds opening one): past it, the request fails "busy" (waitedOutForConnection) instead of waiting
 * for ever behind a saturated database or a request that holds one connection while it waits for
 * another, which would hang every request after it.
 */
function postgresPool(url: string, { size, waitMs }: PoolLimits, readOnly: boolean): pg.Pool {
  const pool = new pg.Pool({ connectionString: readOnly ? withReadOnly(url) : url, max: size, connectionTimeoutMillis: waitMs });
  // An idle client whose connection the server ends (restart, failover, a dropped test database)
  // emits 'error' on the pool; unhandled, that would crash the process. The pool discards the
  // client and the next query opens a new connection, so there is nothing else to do here.
  pool.on('error', () => {});
  // int8 (counts, identities) as numbers, like PGlite returns them.
  pg.types.setTypeParser(20, (v) => Number(v));
  return pool;
}

/**
 * The URL with default_transaction_read_only added to its `options`: pg takes a URL's `options` over
 * a separate one, so a read URL carrying settings of its own (`?options=-c …`) would otherwise
 * open sessions that write.
 */
function withReadOnly(url: string): string {
  const u = new URL(url);
  u.searchParams.set('options', [u.searchParams.get('options'), '-c default_transaction_read_only=on'].filter(Boolean).join(' '));
  return u.toString();
}

/**
 * pg-pool's error when no connection came free (or opened) within the wait, or any error wrapping it
 * (Drizzle wraps the driver's). Its message is its only mark; the busy test in database.test.ts
 * drives the real pool, so a release that changes it fails there.
 */
export function waitedOutForConnection(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.message === 'timeout exceeded when trying to connect') return true;
  }
  return false;
}

async function openPglite(opts: OpenOptions): Promise<Database> {
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create(opts.dataDir, opts.template ? { loadDataDir: opts.template } : {});
  const db = drizzlePglite(client) as unknown as Db;
  return { db, readDb: db, kind: 'pglite', close: () => client.close(), ...{ client } };
}

/**
 * One statement sent as written, bypassing the query builder, and prepared: on PostgreSQL a named
 * prepared statement (parsed and planned once per connection, then only bound and executed); on
 * PGlite, which has no named statements in its protocol API, PREPARE once and EXECUTE with the
 * values as literals (a quarter of the time of parsing and planning each time in WASM). Values may
 * be strings, finite numbers or null. For the few statements on every request's path (authentication).
 */
export async function preparedQuery<T>(db: Db, name: string, text: string, values: (string | number | null)[]): Promise<T[]> {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (!(client instanceof PGlite)) return (await client.query({ name, text, values })).rows as T[];
  let statements = pglitePrepared.get(client);
  if (!statements) pglitePrepared.set(client, (statements = new Map()));
  let ready = statements.get(name);
  if (!ready) {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bad statement name ${name}`);
    statements.set(name, (ready = client.exec(`PREPARE ${name} AS ${text}`).then(() => {})));
    ready.catch(() => statements.delete(name));
  }
  await ready;
  return (await client.query<T>(`EXECUTE ${name}(${values.map(sqlLiteral).join(', ')})`)).rows;
}

const pglitePrepared = new WeakMap<PGlite, Map<string, Promise<void>>>();

function sqlLiteral(v: string | number | null): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('not a finite number');
    return String(v);
  }
  // standard_conforming_strings is on (the default): only the quote needs doubling; NUL cannot be stored.
  if (v.includes('\u0000')) throw new Error('NUL in a statement value');
  return `'${v.replaceAll("'", "''")}'`;
}

export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'postgres') await migratePg(database.db as never, { migrationsFolder });
  else await migratePglite(database.db as never, { migrationsFolder });
}

/** A migrated, empty PGlite dumped to a blob: tests start each file from it in well under a second. */
export async function pgliteTemplate(): Promise<Blob> {
  const client = await PGlite.create();
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  const blob = await client.dumpDataDir('none');
  await client.close();
  return blob;
}
