import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { freshDatabase, testClock } from '../test/harness.js';
import { admin } from '../test/global-setup.js';
import { defaultPoolSize, loadConfig, testConfig } from '../config.js';
import { startServer } from '../server.js';
import { openDatabase } from './database.js';
import type pg from 'pg';
import os from 'node:os';

describe('the pool size (DATABASE_POOL_SIZE)', () => {
  it('defaults to twice the cores shared among the processes, at least 4 each', () => {
    expect([defaultPoolSize(2, 1), defaultPoolSize(2, 2), defaultPoolSize(4, 1), defaultPoolSize(16, 1), defaultPoolSize(16, 16), defaultPoolSize(16, 3)]).toEqual([4, 4, 8, 32, 4, 11]);
    const url = 'postgres://db.invalid/x';
    expect(loadConfig({ DATABASE_URL: url, SERVER_PROCESSES: '2' }).databasePoolSize).toBe(defaultPoolSize(os.availableParallelism(), 2));
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '7' }).databasePoolSize).toBe(7);
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_SIZE: '0' }).databasePoolSize).toBe(1);
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

  it('a server opens its pool with the configured size', async () => {
    const database = await freshDatabase('postgres');
    const running = await startServer(testConfig({ databaseUrl: database.url!, databasePoolSize: 2 }), { now: testClock().now });
    expect((running.database.db as unknown as { $client: pg.Pool }).$client.options.max).toBe(2);
    await running.stop();
    await database.close();
  });
});
