import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { engines, freshDatabase, rowsReadSoFar } from '../test/harness.js';
import type { Database } from './database.js';
import { analyzeGrownTables, autovacuumRounds } from './analyze.js';

describe.each(engines('both'))('analyzing the tables that grew, on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(engine);
    // As the migrations leave the reports' tables: analyzed while empty (0040 rebuilt the statistics,
    // which analyzes them). And a kept plan, as the statistics triggers' are: a PL/pgSQL function
    // plans its statement once.
    await database.db.execute(sql`create table analyze_probe (id int not null, k int not null)`);
    await database.db.execute(sql`create index analyze_probe_k on analyze_probe (k)`);
    await database.db.execute(sql`analyze analyze_probe`);
    await database.db.execute(sql`create function analyze_probe_one() returns bigint as $$ begin return (select count(*) from analyze_probe where k = 42); end $$ language plpgsql`);
  });
  afterAll(() => database?.close());

  it('replaces a plan made while the table was empty: a lookup by an indexed value reads its rows again, not the table', async () => {
    const read = await database.db.transaction(async (tx) => {
      const lookup = async () => {
        const before = await rowsReadSoFar(tx, 'analyze_probe');
        await tx.execute(sql`select analyze_probe_one()`);
        return (await rowsReadSoFar(tx, 'analyze_probe')) - before;
      };
      await lookup(); // planned now, on an empty table
      await tx.execute(sql`insert into analyze_probe select g, g % 1000 from generate_series(1, 5000) g`);
      const stale = await lookup();
      const analyzed = await analyzeGrownTables(tx);
      const again = await analyzeGrownTables(tx);
      return { stale, analyzed, again, fresh: await lookup() };
    });
    expect(read.stale).toBe(5000);
    expect(read.analyzed).toContain('analyze_probe');
    expect(read.again).toEqual([]);
    expect(read.fresh).toBe(5);
  });
});

describe.each(engines('both'))('the stand-in for autovacuum, on %s', (engine) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(engine);
  });
  afterAll(() => database?.close());

  const pages = async (table: string) =>
    Number(((await database.db.execute(sql`select pg_relation_size(${table}::regclass) / 8192 as n`)) as unknown as { rows: { n: number }[] }).rows[0]!.n);
  /** 2,000 rows, then every row updated `times` times (a changed indexed column: no in-page reuse), a round after each pass when given. */
  const churn = async (table: string, times: number, round?: () => Promise<unknown>) => {
    await database.db.execute(sql.raw(`create table ${table} (id int primary key, k int not null, pad text not null)`));
    await database.db.execute(sql.raw(`create index ${table}_k on ${table} (k)`));
    await database.db.execute(sql.raw(`insert into ${table} select g, g, repeat('x', 100) from generate_series(1, 2000) g`));
    await round?.();
    const first = await pages(table);
    for (let i = 0; i < times; i++) {
      await database.db.execute(sql.raw(`update ${table} set k = k + 1`));
      await round?.();
    }
    return { first, last: await pages(table) };
  };

  it('keeps a table that is updated over and over near its live size (without a vacuum it grows with every pass)', async () => {
    const kept = await churn('vacuum_probe_kept', 10, autovacuumRounds(database.db, { vacuum: true }));
    const left = await churn('vacuum_probe_left', 10);
    expect(kept.last).toBeLessThanOrEqual(kept.first * 2 + 1);
    expect(left.last).toBeGreaterThan(left.first * 8);
  });

  it('still analyzes a table that grows by less than a tenth between vacuums, once it grew by a tenth since its analysis', async () => {
    const round = autovacuumRounds(database.db, { vacuum: true });
    await database.db.execute(sql`create table vacuum_probe_growing (id int not null, pad text not null)`);
    const add = (from: number, to: number) =>
      database.db.execute(sql.raw(`insert into vacuum_probe_growing select g, repeat('x', 100) from generate_series(${from}, ${to}) g`));
    await add(1, 10_000);
    expect(await round()).toContain('vacuum_probe_growing'); // grown from empty
    await add(10_001, 10_600); // 6 % more: not yet
    expect(await round()).not.toContain('vacuum_probe_growing');
    await add(10_601, 11_200); // 12 % since the analysis, 6 % since the vacuum
    expect(await round()).toContain('vacuum_probe_growing');
  });
});
