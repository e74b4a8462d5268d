import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { and, asc, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/database.js';
import { jobFailures } from '../metrics.js';
import { enqueuePeriodic } from './queue.js';
import { job, type JobRow } from './tables.js';

/** What a handler gets besides its payload. */
export interface JobContext {
  db: Db;
  config: Config;
  /** The server's clock (the test clock in tests). */
  now(): Date;
  job: JobRow;
  /** Aborted when the server stops while the job runs: the job is put back and run again later. */
  signal: AbortSignal;
  /** Records progress (0–100) and renews the lease: a long job calls it as it goes. */
  progress(percent: number): Promise<void>;
}

/**
 * A kind of job. `run` throws to fail the attempt (retried with backoff until maxattempts);
 * `JobFailure` with `retry: false` fails it at once. `failed` runs once when the job is failed for
 * good, so the domain can record that on its own rows.
 */
export interface JobDefinition<P = any> {
  /**
   * 'long' for work that takes minutes (a PDF zip, an LLM writer): it runs on a runner of its own,
   * so a crisis warning's notification or escalation never waits behind it (jobLanes).
   */
  lane?: 'long';
  /**
   * Housekeeping, every this many ms: the run of the current period is queued when the server
   * starts (startPeriodic), the next period's as each run begins, so one failed run stops nothing.
   */
  every?: number;
  run(payload: P, ctx: JobContext): Promise<void>;
  failed?(payload: P, ctx: Omit<JobContext, 'progress' | 'signal'>, error: string): Promise<void>;
}

export type JobHandlers = Record<string, JobDefinition>;

/** Queues the current period's run of every housekeeping kind (one a period, whoever asks). */
export async function startPeriodic(db: DbOrTx, handlers: JobHandlers, now: Date): Promise<void> {
  for (const [kind, def] of Object.entries(handlers)) if (def.every) await enqueuePeriodic(db, kind, def.every, now, now);
}

/** The handlers split into the runners a server process polls with: quick kinds, and long ones. */
export function jobLanes(handlers: JobHandlers): JobHandlers[] {
  const quick = Object.entries(handlers).filter(([, def]) => def.lane !== 'long');
  const long = Object.entries(handlers).filter(([, def]) => def.lane === 'long');
  return [quick, long].filter((lane) => lane.length).map((lane) => Object.fromEntries(lane));
}

/** An error whose message may be stored and shown (no stack, no internals), optionally not worth a retry. */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly retry = true,
  ) {
    super(message);
  }
}

interface Log {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobRunnerOptions {
  db: Db;
  config: Config;
  now: () => Date;
  handlers: JobHandlers;
  /** How long a claimed job is held before another worker may take it (default 5 minutes). */
  leaseMs?: number;
  /** The first retry's delay; it doubles per attempt, up to an hour (default 30 s). */
  backoffMs?: number;
  workerId?: string;
  log?: Log;
}

const silent: Log = { warn: () => {}, error: () => {} };

/**
 * Claims and runs due jobs of the kinds it has handlers for. Several runners (in one process or in
 * many, on one database) share the table safely: a job is claimed by one of them only (row lock with
 * SKIP LOCKED, then a lease), and finishing a job checks the lease is still the runner's own.
 */
export class JobRunner {
  readonly workerId: string;
  private readonly leaseMs: number;
  private readonly backoffMs: number;
  private readonly log: Log;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private readonly abort = new AbortController();

  constructor(private readonly opts: JobRunnerOptions) {
    this.workerId = opts.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.backoffMs = opts.backoffMs ?? 30_000;
    this.log = opts.log ?? silent;
  }

  /**
   * Runs every job due now, one after another, until none is left; answers how many ran. Tests call
   * it after moving the test clock (naming `kinds` when they count one domain's jobs while other
   * domains' jobs may be due too); the server's poll loop calls it on a timer.
   */
  async runDue(kinds?: string[]): Promise<number> {
    await this.failExhausted();
    let ran = 0;
    for (;;) {
      if (this.abort.signal.aborted) return ran;
      const claimed = await this.claim(kinds);
      if (!claimed) return ran;
      await this.execute(claimed);
      ran++;
    }
  }

  /** Polls every `pollMs` until stop(). */
  start(pollMs: number): void {
    if (this.timer || pollMs <= 0) return;
    const tick = () => {
      this.running = this.runDue()
        .catch((err) => this.log.error({ err }, 'job poll failed'))
        .finally(() => {
          if (!this.abort.signal.aborted) this.timer = setTimeout(tick, pollMs);
        });
    };
    this.timer = setTimeout(tick, pollMs);
  }

  /** stopped: stop() was called; polling: start() scheduled its poll; manual: it runs only when asked (JOB_POLL_MS=0, tests). */
  get state(): 'polling' | 'manual' | 'stopped' {
    if (this.abort.signal.aborted) return 'stopped';
    return this.timer ? 'polling' : 'manual';
  }

  /** Stops polling; a job in flight is told to abort and put back for later, then this resolves. */
  async stop(): Promise<void> {
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private kinds(): string[] {
    return Object.keys(this.opts.handlers);
  }

  /** One due job: queued and due, or running with an expired lease (its worker died) and attempts left. */
  private async claim(only?: string[]): Promise<JobRow | null> {
    const kinds = only ? this.kinds().filter((k) => only.includes(k)) : this.kinds();
    if (!kinds.length) return null;
    const now = this.opts.now();
    const due = or(
      and(eq(job.state, 'queued'), lte(job.runat, now)),
      and(eq(job.state, 'running'), lt(job.lockeduntil, now), lt(job.attempts, job.maxattempts)),
    );
    const pick = this.opts.db
      .select({ id: job.id })
      .from(job)
      .where(and(inArray(job.kind, kinds), due))
      .orderBy(asc(job.runat), asc(job.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await this.opts.db
      .update(job)
      .set({
        state: 'running',
        lockedby: this.workerId,
        lockeduntil: new Date(now.getTime() + this.leaseMs),
        attempts: sql`${job.attempts} + 1`,
        startedat: now,
        progress: 0,
      })
      .where(inArray(job.id, pick))
      .returning();
    return row ?? null;
  }

  /** Jobs whose worker died on their last attempt: failed for good (their domain is told). */
  private async failExhausted(): Promise<void> {
    const now = this.opts.now();
    const rows = await this.opts.db
      .update(job)
      .set({
        state: 'failed',
        lockedby: null,
        lockeduntil: null,
        finishedat: now,
        lasterror: 'the worker running it stopped (lease expired)',
      })
      .where(and(inArray(job.kind, this.kinds()), eq(job.state, 'running'), lt(job.lockeduntil, now), gte(job.attempts, job.maxattempts)))
      .returning();
    for (const row of rows) {
      jobFailures.inc({ kind: row.kind, final: 'true' });
      await this.tellFailed(row, row.lasterror ?? '');
    }
  }

  private async execute(row: JobRow): Promise<void> {
    const def = this.opts.handlers[row.kind]!;
    const mine = and(eq(job.id, row.id), eq(job.lockedby, this.workerId), eq(job.state, 'running'));
    const ctx: JobContext = {
      db: this.opts.db,
      config: this.opts.config,
      now: this.opts.now,
      job: row,
      signal: this.abort.signal,
      progress: async (percent) => {
        const now = this.opts.now();
        await this.opts.db
          .update(job)
          .set({ progress: Math.max(0, Math.min(100, Math.round(percent))), lockeduntil: new Date(now.getTime() + this.leaseMs) })
          .where(mine);
      },
    };
    try {
      if (def.every) await enqueuePeriodic(this.opts.db, row.kind, def.every, new Date(this.opts.now().getTime() + def.every), this.opts.now());
      await def.run(row.payload, ctx);
      const done = await this.opts.db
        .update(job)
        .set({ state: 'done', progress: 100, lockedby: null, lockeduntil: null, finishedat: this.opts.now(), lasterror: null })
        .where(mine)
        .returning({ id: job.id });
      if (!done.length) this.log.warn({ job: row.id, kind: row.kind }, 'job finished after its lease was taken by another worker');
    } catch (err) {
      await this.afterError(row, err, mine);
    }
  }

  private async afterError(row: JobRow, err: unknown, mine: ReturnType<typeof and>): Promise<void> {
    const now = this.opts.now();
    if (this.abort.signal.aborted) {
      // Stopping: give the job back without counting the attempt.
      await this.opts.db
        .update(job)
        .set({ state: 'queued', attempts: sql`${job.attempts} - 1`, lockedby: null, lockeduntil: null, runat: now })
        .where(mine);
      return;
    }
    const message = err instanceof JobFailure ? err.message : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    if (!(err instanceof JobFailure)) this.log.error({ err, job: row.id, kind: row.kind }, 'job failed');
    const last = (err instanceof JobFailure && !err.retry) || row.attempts >= row.maxattempts;
    jobFailures.inc({ kind: row.kind, final: String(last) });
    const delay = Math.min(this.backoffMs * 2 ** (row.attempts - 1), 3_600_000);
    const [updated] = await this.opts.db
      .update(job)
      .set(
        last
          ? { state: 'failed', lockedby: null, lockeduntil: null, finishedat: now, lasterror: message.slice(0, 2000) }
          : {
              state: 'queued',
              lockedby: null,
              lockeduntil: null,
              runat: new Date(now.getTime() + delay),
              lasterror: message.slice(0, 2000),
            },
      )
      .where(mine)
      .returning();
    if (last && updated) await this.tellFailed(updated, message);
  }

  private async tellFailed(row: JobRow, message: string): Promise<void> {
    const def = this.opts.handlers[row.kind];
    try {
      await def?.failed?.(row.payload, { db: this.opts.db, config: this.opts.config, now: this.opts.now, job: row }, message);
    } catch (err) {
      this.log.error({ err, job: row.id, kind: row.kind }, 'job failure hook failed');
    }
  }
}
