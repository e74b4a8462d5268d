import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { freshDatabase, testClock } from '../test/harness.js';
import { admin } from '../test/global-setup.js';
import { defaultPoolSize, loadConfig, testConfig } from '../config.js';
import { startServer } from '../server.js';
import { openDatabase } from './database.js';
import type pg from 'pg';
import os from 'node:os';

describe('the pool (DATABASE_POOL_SIZE, DATABASE_POOL_WAIT_MS)', () => {
  it('defaults to twice the cores shared among the processes, at least 4 each', () => {
    expect([defaultPoolSize(2, 1), defaultPoolSize(2, 2), defaultPoolSize(4, 1), defaultPoolSize(16, 1), defaultPoolSize(16, 16), defaultPoolSize(16, 3)]).toEqual([4, 4, 8, 32, 4, 11]);
    const url = 'postgres://db.invalid/x';
    expect(loadConfig({ DATABASE_URL: url, SERVER_PROCESSES: '2' }).databasePoolSize).toBe(defaultPoolSize(os.availableParallelism(), 2));
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '7' }).databasePoolSize).toBe(7);
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '0' }).databasePoolSize).toBe(1);
  });
  it('waits 30 s for a free connection unless DATABASE_POOL_WAIT_MS says otherwise', () => {
    expect([loadConfig({}).databasePoolWaitMs, loadConfig({ DATABASE_POOL_WAIT_MS: '2500' }).databasePoolWaitMs]).toEqual([30_000, 2500]);
  });
});

// Only PostgreSQL has connections a server can end; CI always sets TEST_DATABASE_URL.
describe.runIf(!!process.env.TEST_DATABASE_URL)('the PostgreSQL pool', () => {
  it('survives the server ending its idle connections (restart, failover) and reconnects', async () => {
    const database = await freshDatabase('postgres');
    const rows = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;
    const [{ name }] = rows(await database.db.execute(sql`select current_database() as name`));
    await admin(process.env.TEST_DATABASE_URL!, `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
    await new Promise((r) => setTimeout(r, 300));
    const [{ one }] = rows(await database.db.execute(sql`select 1 as one`));
    expect(Number(one)).toBe(1);
    await database.close();
  });

  it('opens at most the connections it is given, on the primary and on the replica', async () => {
    const database = await freshDatabase('postgres');
    const sized = await openDatabase({ url: database.url!, readUrl: database.url!, poolSize: 3, migrate: false });
    const dbs = [sized.db, sized.readDb];
    // Eight statements at once on each, each holding its connection a moment: a pool opens all it may, and no more.
    await Promise.all(dbs.flatMap((db) => Array.from({ length: 8 }, () => db.execute(sql`select pg_sleep(0.05)`))));
    const pools = dbs.map((db) => (db as unknown as { $client: pg.Pool }).$client);
    expect(pools.map((p) => [p.options.max, p.totalCount])).toEqual([[3, 3], [3, 3]]);
    await sized.close();
    await database.close();
  });

  it('a request that finds no connection free within DATABASE_POOL_WAIT_MS is answered "busy" (503, in its language), and the next one is served', async () => {
    const database = await freshDatabase('postgres');
    // The wait also bounds opening the connection (the migrations' first statement): 100 ms was too
    // short for that on a loaded 2-core machine (CI's type-check beside the tests), 1 s is not.
    const running = await startServer(testConfig({ databaseUrl: database.url!, databasePoolSize: 1, databasePoolWaitMs: 1_000 }), { now: testClock().now });
    const signIn = (lang: string) =>
      running.app.inject({ method: 'POST', url: '/api/as.m.user.login/1.0.0/action', headers: { 'accept-language': lang }, payload: { username: 'nobody', pwd: 'F'.repeat(32) } });
    await running.app.ready();
    // The pool's one connection, held by a transaction until the refused requests have their answers.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding!: Promise<void>;
    await new Promise<void>((started) => {
      holding = running.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        started();
        await held;
      });
    });
    // A sign-in waits in the route's hook (its rate), a signed-in call in the action (its session).
    const ping = () => running.app.inject({ method: 'POST', url: '/api/as.m.system.ping/1.0.0/action', headers: { token: 'a-token' }, payload: {} });
    const [en, zh, signedIn] = await Promise.all([signIn('en-US'), signIn('zh-CN'), ping()]);
    release();
    await holding;
    expect([signedIn.statusCode, signedIn.json().errorMsg]).toEqual([503, '服务器繁忙，请稍后再试']);
    expect([en.statusCode, en.headers['retry-after'], en.json()]).toEqual([503, '5', expect.objectContaining({ errorCode: 100500, errorMsg: 'The server is busy: please try again in a moment' })]);
    expect([zh.statusCode, zh.json().errorMsg]).toEqual([503, '服务器繁忙，请稍后再试']);
    expect((await signIn('en-US')).json().errorCode).toBe(100401);
    await running.stop();
    await database.close();
  });

  it('a server opens its pool with the configured size', async () => {
    const database = await freshDatabase('postgres');
    const running = await startServer(testConfig({ databaseUrl: database.url!, databasePoolSize: 2 }), { now: testClock().now });
    expect((running.database.db as unknown as { $client: pg.Pool }).$client.options.max).toBe(2);
    await running.stop();
    await database.close();
  });
});
