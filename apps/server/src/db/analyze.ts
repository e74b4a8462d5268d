import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from './database.js';

/**
 * ANALYZE for the tables that grew since their last one: from empty, or by more than a tenth of
 * the pages they had then (autovacuum's rule of thumb, read off the table's size: PGlite keeps no
 * counts of changed rows). Answers the tables analyzed.
 *
 * Why it matters: a statement's plan is made from what the planner knows of a table's size, and a
 * plan kept for reuse (a prepared statement's generic plan, every plan of a PL/pgSQL function such
 * as the statistics triggers) is kept until the table is analyzed. Planned while a table was empty
 * it scans the whole table, for good: on PGlite, which has no autovacuum, every submission read
 * every report, person and indicator row in the statistics triggers. ANALYZE gives the planner the
 * table's real size and drops the plans made without it.
 */
export async function analyzeGrownTables(db: DbOrTx): Promise<string[]> {
  const grown = (await db.execute(sql`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = 'public'
      and pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.1
    order by c.relname`)) as unknown as { rows: { name: string }[] };
  const names = grown.rows.map((r) => r.name);
  if (names.length) await db.execute(sql.raw(`analyze ${names.map((n) => `"${n.replaceAll('"', '""')}"`).join(', ')}`));
  return names;
}

/**
 * The embedded database's stand-in for autovacuum's analyses: every `everyMs`, the tables that grew
 * are analyzed (one at a time with the requests: PGlite has one connection). Answers the stop.
 */
export function analyzeWhileRunning(db: Db, everyMs: number, onError: (err: unknown) => void): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= analyzeGrownTables(db)
      .catch(onError)
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
