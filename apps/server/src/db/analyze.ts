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
 *
 * "Its last one" is the size the catalogue recorded (`relpages`), unless `analyzedAt` remembers it:
 * a VACUUM records the size too, so a process that vacuums keeps the sizes of its own analyses
 * there (filled for every table on its first use, before any vacuum), or a table growing by less
 * than a tenth between two vacuums would never be analyzed again.
 */
export async function analyzeGrownTables(db: DbOrTx, analyzedAt?: Map<string, number>): Promise<string[]> {
  const tables = (await db.execute(sql`
    select c.relname as name, pg_relation_size(c.oid) / current_setting('block_size')::int as pages, c.relpages as recorded
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = 'public'
    order by c.relname`)) as unknown as { rows: { name: string; pages: number | string; recorded: number }[] };
  const grown: string[] = [];
  for (const table of tables.rows) {
    const pages = Number(table.pages);
    const last = analyzedAt?.get(table.name) ?? table.recorded;
    const isGrown = pages > last * 1.1;
    if (isGrown) grown.push(table.name);
    analyzedAt?.set(table.name, isGrown ? pages : last);
  }
  if (grown.length) await db.execute(sql.raw(`analyze ${grown.map((n) => `"${n.replaceAll('"', '""')}"`).join(', ')}`));
  return grown;
}

/**
 * The embedded database's stand-in for autovacuum, one round at a time: the tables that grew are
 * analyzed and, with `vacuum`, the whole database is vacuumed. Answers the tables analyzed.
 *
 * Why vacuum: every update and delete leaves the row's old version behind until a VACUUM marks its
 * space free. Without one the tables only grow: 1,000 submissions left `stats_count` at 5.4 times
 * its live size on PGlite (each updates the same daily rows), and a server that runs for a term
 * would keep growing its files and the pages every scan reads. A plain VACUUM skips the pages
 * nothing changed since the last (the visibility map), so a round costs about the changes since
 * the one before (8 to 92 ms after a 1,000-student screening), and it freezes old rows as their
 * transaction ids age, which a long-lived database needs. PostgreSQL's own autovacuum does all of
 * this there: `vacuum` is for PGlite.
 */
export function autovacuumRounds(db: Db, opts: { vacuum: boolean }): () => Promise<string[]> {
  const analyzedAt = new Map<string, number>();
  return async () => {
    const analyzed = await analyzeGrownTables(db, analyzedAt);
    if (opts.vacuum) await db.execute(sql`vacuum`);
    return analyzed;
  };
}

/** Runs `autovacuumRounds` every `everyMs` (one at a time with the requests: PGlite has one connection). Answers the stop. */
export function autovacuumWhileRunning(db: Db, opts: { everyMs: number; vacuum: boolean }, onError: (err: unknown) => void): () => Promise<void> {
  const round = autovacuumRounds(db, opts);
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    running ??= round()
      .catch(onError)
      .finally(() => (running = undefined));
  }, opts.everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
