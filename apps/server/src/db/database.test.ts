import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { freshDatabase } from '../test/harness.js';
import { admin } from '../test/global-setup.js';

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
});
