import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { newId } from '../ids.js';
import { job, type JobRow } from './tables.js';

export interface EnqueueOptions {
  /** The caller's clock (ctx.now()): the job's creation time, and when it is due unless runAt says later. */
  now: Date;
  runAt?: Date;
  /** At most one job ever carries this key: a second enqueue answers the first job (created: false). */
  dedupKey?: string;
  /** Attempts before the job is failed for good (default 3). */
  maxAttempts?: number;
}

/**
 * Adds a job. Pass the caller's transaction to make the job part of it: it exists only if the
 * transaction commits, so a job never refers to rows that were rolled back.
 */
export async function enqueue(db: DbOrTx, kind: string, payload: unknown, opts: EnqueueOptions): Promise<{ id: string; created: boolean }> {
  const id = newId('J');
  const [row] = await db
    .insert(job)
    .values({
      id,
      kind,
      payload: payload ?? null,
      runat: opts.runAt ?? opts.now,
      createdat: opts.now,
      dedupkey: opts.dedupKey ?? null,
      maxattempts: opts.maxAttempts ?? 3,
    })
    .onConflictDoNothing()
    .returning({ id: job.id });
  if (row) return { id: row.id, created: true };
  const [existing] = await db.select({ id: job.id }).from(job).where(eq(job.dedupkey, opts.dedupKey!));
  if (!existing) throw new Error(`job ${kind}: enqueue conflicted but no job has the key`);
  return { id: existing.id, created: false };
}

/**
 * The run of `kind` for the period `at` falls in (periods of `periodMs` counted from the epoch): due
 * when the period starts (now, if later), one job a period whoever asks (the period is its key).
 */
export async function enqueuePeriodic(db: DbOrTx, kind: string, periodMs: number, at: Date, now: Date): Promise<void> {
  const slot = Math.floor(at.getTime() / periodMs) * periodMs;
  await enqueue(db, kind, { slot }, { now, runAt: new Date(Math.max(slot, now.getTime())), dedupKey: `${kind}:${slot}` });
}

/** The state of some jobs, for lists that show progress. */
export async function jobsById(db: DbOrTx, ids: string[]): Promise<Map<string, JobRow>> {
  if (!ids.length) return new Map();
  const rows = await db.select().from(job).where(inArray(job.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}
