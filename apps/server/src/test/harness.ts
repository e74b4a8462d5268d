import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { ActionInput, ActionName, UserRecord } from '@xinli/contract';
import { buildApp, type AppOptions } from '../app.js';
import { analyzeGrownTables } from '../db/analyze.js';
import { testConfig, type Config } from '../config.js';
import { openDatabase, type Database, type DbOrTx } from '../db/database.js';
import { readyEncryption } from '../encryption.js';
import { syncReferenceData } from '../seed/reference.js';
import { seedDemo } from '../seed/demo.js';
import { md5Upper } from '../domains/auth/passwords.js';
import { admin, withDatabase } from './global-setup.js';
import type { HandlerMap } from '../http/handlers.js';
import type { JobHandlers, JobRunner } from '../kit/jobs/index.js';

export type Engine = 'pglite' | 'postgres';

/**
 * The engines a test file runs on. An API test runs on one: PostgreSQL when TEST_DATABASE_URL is set
 * (production's engine), else PGlite. The browser tests' server runs on PGlite, the default engine,
 * through every page. A file testing code that differs by engine (a branch on PGlite: notifications,
 * pools, backups, the import's child process, the replica, the keyring) asks for `engines('both')`
 * and runs on PGlite and, when TEST_DATABASE_URL is set, PostgreSQL. TEST_ENGINES=both runs every
 * file on both, as the suite did before it had to fit CI's time (README "Tests").
 */
export function engines(scope: 'one' | 'both' = 'one'): Engine[] {
  if (!process.env.TEST_DATABASE_URL) return ['pglite'];
  return scope === 'both' || process.env.TEST_ENGINES === 'both' ? ['pglite', 'postgres'] : ['postgres'];
}

export const DEMO_PASSWORD = 'demo123';

/**
 * The instant every test clock starts at. Tests never read the wall clock: dates a test writes
 * (authorisation windows, birth dates) are computed from this, so the suite passes on any day.
 */
export const TEST_EPOCH = Date.parse('2026-11-21T08:00:00Z');

/** A day of the test calendar, `days` away from TEST_EPOCH, as YYYY-MM-DD. */
export function testDay(days = 0): string {
  return new Date(TEST_EPOCH + days * 86_400_000).toISOString().slice(0, 10);
}

/** A clock the test moves by hand. */
export function testClock(start = TEST_EPOCH) {
  let t = start;
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

export interface Envelope<T = unknown> {
  errorCode: number;
  errorMsg: string;
  data: T;
}

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  clock: ReturnType<typeof testClock>;
  /** The app's background job runner: `await s.jobs.runDue()` runs every job due on the test clock. */
  jobs: JobRunner;
  /**
   * Resolves once the app's change feed has heard every change committed before the call: on
   * PostgreSQL a notification arrives on its own, and one heard late drops what was kept after it.
   */
  changesHeard(): Promise<void>;
  call<N extends ActionName>(name: N, body: ActionInput<N> | Record<string, unknown>, token?: string, headers?: Record<string, string>): Promise<Envelope<any> & { status: number }>;
  raw(name: string, payload: string | Buffer, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  login(username: string, password?: string, ip?: string): Promise<UserRecord>;
  /**
   * Another app on this server's database and clock (e.g. with a broken handler). Test files never
   * call buildApp themselves: an app on the wall clock would see the test's sessions as expired.
   */
  appOnTestClock(opts?: Partial<AppOptions>): Promise<FastifyInstance>;
  close(): Promise<void>;
}

/**
 * A fresh database of the given engine, migrated and (unless told not to) seeded with the demo data;
 * on PostgreSQL with its connection string (`url`), for a second pool or process.
 */
export async function freshDatabase(engine: Engine): Promise<Database & { url?: string }> {
  if (engine === 'pglite') {
    const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))]);
    return openDatabase({ template, migrate: false });
  }
  const url = process.env.TEST_DATABASE_URL!;
  const name = `xinli_t_${process.ppid}_${randomBytes(4).toString('hex')}`;
  await admin(url, `CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  const database = Object.assign(await openDatabase({ url: withDatabase(url, name), migrate: false }), { url: withDatabase(url, name) });
  const close = database.close;
  database.close = async () => {
    await close();
    await admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  return database;
}

export async function startTestServer(
  engine: Engine,
  opts: { seed?: boolean; demoReports?: boolean; demoTasks?: boolean; config?: Partial<Config>; handlers?: HandlerMap; jobHandlers?: JobHandlers; database?: Database; logStream?: NodeJS.WritableStream } = {},
): Promise<TestServer> {
  const database = opts.database ?? (await freshDatabase(engine));
  await syncReferenceData(database.db);
  const clock = testClock();
  const config = testConfig(opts.config);
  // As startServer does: keys and the index key first, the seed, then whatever is still plain sealed.
  await readyEncryption(database.db, config, false);
  if (opts.seed !== false) await seedDemo(database.db, DEMO_PASSWORD, clock.now(), { reports: opts.demoReports ?? opts.demoTasks ?? false, tasks: opts.demoTasks ?? false });
  await readyEncryption(database.db, config, true);
  await analyzeGrownTables(database.db);
  const build = (more: Partial<AppOptions> = {}) =>
    buildApp({ database, config, now: clock.now, handlers: opts.handlers, jobHandlers: opts.jobHandlers, checkOutput: true, logStream: opts.logStream, ...more });
  const app = await build();
  await app.ready();

  // The header x-test-ip stands for the client address (the rate limit counts per address).
  const raw: TestServer['raw'] = (name, payload, { 'x-test-ip': ip, ...headers } = {}) =>
    app.inject({
      method: 'POST',
      url: `/api/${name}/1.0.0/action`,
      payload,
      remoteAddress: ip ?? '127.0.0.1',
      headers: { 'content-type': 'application/json', ...headers },
    });

  const call: TestServer['call'] = async (name, body, token, headers = {}) => {
    const res = await raw(name, JSON.stringify(body), { ...(token ? { token } : {}), ...headers });
    return { ...(res.json() as Envelope), status: res.statusCode };
  };

  return {
    app,
    database,
    clock,
    jobs: app.jobs,
    changesHeard: () => app.changeFeed.confirm(),
    call,
    raw,
    async login(username, password = DEMO_PASSWORD, ip) {
      const res = await call('as.m.user.login', { username, pwd: md5Upper(password) }, undefined, ip ? { 'x-test-ip': ip } : {});
      if (res.errorCode !== 0) throw new Error(`login ${username} failed: ${res.errorCode} ${res.errorMsg}`);
      return res.data as UserRecord;
    },
    appOnTestClock: build,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * Rows of `table` this connection has read so far (by index or sequential scans), from its pending
 * statistics: the view also holds counts of its earlier transactions not yet sent, so a statement's
 * own reads are the difference of two calls around it, in one transaction.
 */
export async function rowsReadSoFar(tx: DbOrTx, table: string): Promise<number> {
  const res = await tx.execute(sql`select coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0) as n from pg_stat_xact_user_tables where relname = ${table}`);
  return Number((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
}
