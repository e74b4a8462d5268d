import { sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/database.js';
import { enqueuePeriodic, type JobHandlers } from '../../kit/jobs/index.js';

/** The shortest retention the law allows (Cybersecurity Law Art. 21: at least six months); the database refuses younger deletes too. */
export const MIN_RETENTION_DAYS = 180;
export const PURGE_JOB = 'audit.purge';
const DAY = 86_400_000;

/**
 * Removes the entries older than `days` (never fewer than 180), oldest first and only as a
 * prefix of the chain: it stops at the first entry that must stay, so what remains is one unbroken
 * chain from the anchor the delete trigger records (the hash of the last entry removed).
 * Answers how many were removed.
 */
export async function purgeAudit(db: Db, now: Date, days: number): Promise<number> {
  if (!(days >= MIN_RETENTION_DAYS)) throw new Error(`audit retention must be at least ${MIN_RETENTION_DAYS} days (got ${days})`);
  const cutoff = new Date(now.getTime() - days * DAY);
  return db.transaction(async (tx) => {
    // The delete trigger refuses any delete outside this flag (transaction-local) and any row younger than 180 days.
    await tx.execute(sql`select set_config('xinli.audit_purge', 'on', true)`);
    const result = await tx.execute(sql`
      delete from audit_log where seq < coalesce(
        (select min(seq) from audit_log where at >= ${cutoff.toISOString()}::timestamptz),
        (select headseq + 1 from audit_chain where one = 1))
      returning seq`);
    return (result as unknown as { rows: unknown[] }).rows.length;
  });
}

/** The purge of the day `at` falls in (idempotent: one job per day, whoever asks). */
export async function enqueuePurge(db: DbOrTx, at: Date, now: Date) {
  await enqueuePeriodic(db, PURGE_JOB, DAY, at, now);
}

/** Starts the daily retention job when AUDIT_RETENTION_DAYS is set (off otherwise: nothing is ever removed). */
export async function startAuditRetention(db: DbOrTx, config: Config, now: Date) {
  if (config.auditRetentionDays !== null) await enqueuePurge(db, now, now);
}

/** The retention job: reads AUDIT_RETENTION_DAYS when it runs (unset since: it stops) and queues the next day's run. */
export const auditJobs: JobHandlers = {
  [PURGE_JOB]: {
    async run(_payload: { slot: number }, ctx) {
      const days = ctx.config.auditRetentionDays;
      if (days === null) return;
      await purgeAudit(ctx.db, ctx.now(), days);
      await enqueuePurge(ctx.db, new Date(ctx.now().getTime() + DAY), ctx.now());
    },
  },
};
