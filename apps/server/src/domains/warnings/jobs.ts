import { and, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database.js';
import { enqueuePeriodic, JobFailure, type JobHandlers } from '../../kit/jobs/index.js';
import type { OutboundChannel, OutboundMessage } from './channel.js';
import { publishWarnEvent } from './events.js';
import { DELIVER_JOB, ESCALATE_JOB } from './queue.js';
import { announce } from './raise.js';
import { sweepMissed } from './sweeps.js';
import { caseEvent, warnCase } from './tables.js';

/**
 * The background work of warnings, on the jobs kit (kit/jobs): delivering an outbound message
 * (retried with backoff), escalating one critical case when its time comes, and the hourly sweep
 * of missed deadlines, which queues the next hour's sweep itself.
 */
export const SWEEP_JOB = 'warnings.sweep';
const HOUR = 3_600_000;

/** Where a database's outbound messages go; set by the app from its configuration (none: console only). */
interface Outbound {
  channel: OutboundChannel | null;
  publicBaseUrl: string;
}
const outbound = new WeakMap<object, Outbound>();
export function configureOutbound(db: Db, o: Outbound) {
  outbound.set(db, o);
}

/** The sweep of the hour `at` falls in (idempotent: one job per hour whoever asks). */
export async function enqueueSweep(db: DbOrTx, at: Date, now: Date) {
  await enqueuePeriodic(db, SWEEP_JOB, HOUR, at, now);
}

/** Escalates a critical case nobody acknowledged, if it is still so at `now`. Answers whether it did. */
export async function escalateCase(db: Db, caseid: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [c] = await tx
      .select()
      .from(warnCase)
      .where(
        and(
          eq(warnCase.caseid, caseid),
          eq(warnCase.state, 'open'),
          isNotNull(warnCase.escalatedue),
          lte(warnCase.escalatedue, now),
          isNull(warnCase.escalatedat),
        ),
      )
      .for('update');
    if (!c) return false;
    await tx.update(warnCase).set({ escalatedue: null, escalatedat: now }).where(eq(warnCase.caseid, caseid));
    await tx.insert(caseEvent).values({ caseid, at: now, by: 'system', fromstate: c.state, tostate: c.state, what: 'escalate', note: '' });
    await announce(tx, { kind: 'escalated', caseid, musercode: c.musercode }, now);
    await publishWarnEvent(tx, { kind: 'escalated', caseid, level: 'critical', musercode: c.musercode });
    return true;
  });
}

export const warningJobs: JobHandlers = {
  [DELIVER_JOB]: {
    async run(payload: Omit<OutboundMessage, 'link'>, ctx) {
      const o = outbound.get(ctx.db);
      if (!o?.channel) return;
      const link = `${o.publicBaseUrl}/earlyWarning/earlyWarning?caseid=${encodeURIComponent(payload.caseid)}`;
      try {
        await o.channel.send({ ...payload, link });
      } catch (err) {
        // Stored as written: the channel's status line, never the message (which has no personal data anyway).
        throw new JobFailure(`${o.channel.name}: ${(err as Error).message}`.slice(0, 300));
      }
    },
  },
  [ESCALATE_JOB]: {
    async run(payload: { caseid: string }, ctx) {
      await escalateCase(ctx.db, payload.caseid, ctx.now());
    },
  },
  [SWEEP_JOB]: {
    async run(_payload: { slot: number }, ctx) {
      await sweepMissed(ctx.db, ctx.now(), { signal: ctx.signal, batchDone: () => ctx.progress(0) });
      // The next hour after now, not after this slot: a server that was down for days sweeps once, not once per missed hour.
      await enqueueSweep(ctx.db, new Date(ctx.now().getTime() + HOUR), ctx.now());
    },
  },
};
