import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { engines, freshDatabase, rowsReadSoFar } from '../test/harness.js';
import type { Database } from './database.js';
import { analyzeGrownTables } from './analyze.js';

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
