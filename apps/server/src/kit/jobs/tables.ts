import { sql } from 'drizzle-orm';
import { pgTable, text, integer, jsonb, timestamp, index, uniqueIndex, check } from 'drizzle-orm/pg-core';

/**
 * Background work shared by every server process (DESIGN §9): one row per job. A worker claims a due
 * row with FOR UPDATE SKIP LOCKED and holds it for a lease (`lockeduntil`); a process that dies
 * while running a job leaves the lease to expire, and another process takes the job again. Nothing
 * is kept in memory, so nothing is lost on restart.
 */
export const job = pgTable(
  'job',
  {
    id: text().primaryKey(),
    /** Which handler runs it (registered per kind by the domains, `domains/index.ts`). */
    kind: text().notNull(),
    payload: jsonb().$type<unknown>().notNull(),
    /** queued → running → done, or back to queued for a retry, or failed after the last attempt. */
    state: text().$type<JobState>().notNull().default('queued'),
    attempts: integer().notNull().default(0),
    maxattempts: integer().notNull().default(3),
    /** Not before this instant (a retry's backoff, or a job planned for later). */
    runat: timestamp({ withTimezone: true }).notNull(),
    /** The worker holding the job while it runs, and until when its lease holds. */
    lockedby: text(),
    lockeduntil: timestamp({ withTimezone: true }),
    lasterror: text(),
    /** 0–100, set by the handler as it goes (shown in lists). */
    progress: integer().notNull().default(0),
    /** Idempotent enqueue: a second job with the same key is not created (unique across all states). */
    dedupkey: text(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    startedat: timestamp({ withTimezone: true }),
    finishedat: timestamp({ withTimezone: true }),
  },
  (t) => [
    check('job_state_ck', sql`${t.state} in ('queued', 'running', 'done', 'failed')`),
    uniqueIndex('job_dedupkey_uq').on(t.dedupkey),
    index('job_due_idx').on(t.state, t.runat),
    index('job_kind_idx').on(t.kind),
  ],
);

export type JobState = 'queued' | 'running' | 'done' | 'failed';
export type JobRow = typeof job.$inferSelect;
