import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { DEFAULT_WARNING_SETTINGS } from '@xinli/contract';
import type { Db } from '../../db/database.js';
import { unfinishedCodes } from '../assessments/history.js';
import type { OutboundChannel, OutboundMessage } from './channel.js';
import { publishWarnEvent } from './events.js';
import { addWarning, announce, trySweepLock } from './raise.js';
import { changedSettings } from './settings.js';
import { caseEvent, warnCase, warning, warnOutbox } from './tables.js';
import { isMissed, missedTrigger } from './triggers.js';

/**
 * The background work of warnings: missed deadlines, escalation of unacknowledged critical cases,
 * and delivery of outbound messages with retries. Each runs on the clock it is given (tests move
 * it by hand) and under an advisory lock, so several server processes may all run it.
 */

const BATCH = 500;

/** Given assessments past their institution's deadline get one missed warning each. */
export async function sweepMissed(db: Db, now: Date): Promise<number> {
  const changed = await changedSettings(db);
  const daysOf = (m: string) => (changed.get(m) ?? DEFAULT_WARNING_SETTINGS).misseddays;
  const all = [DEFAULT_WARNING_SETTINGS.misseddays, ...[...changed.values()].map((s) => s.misseddays)].filter((d) => d > 0);
  if (!all.length) return 0;
  const before = new Date(now.getTime() - Math.min(...all) * 86_400_000);
  let after = '';
  let raised = 0;
  for (;;) {
    const batch = await unfinishedCodes(db, before, after, BATCH);
    if (!batch.length) break;
    after = batch[batch.length - 1]!.assesscode;
    const due = batch.filter((c) => isMissed(c.createdat, false, daysOf(c.musercode), now));
    const known = due.length
      ? new Set(
          (await db.select({ c: warning.assesscode }).from(warning).where(and(eq(warning.kind, 'missed'), inArray(warning.assesscode, due.map((c) => c.assesscode))))).map(
            (r) => r.c,
          ),
        )
      : new Set<string | null>();
    for (const c of due) {
      if (known.has(c.assesscode)) continue;
      const t = missedTrigger(daysOf(c.musercode));
      const r = await db.transaction((tx) =>
        addWarning(tx, { musercode: c.musercode, cusercode: c.cusercode, kind: t.kind, level: t.level, params: t.params, assesscode: c.assesscode, stagecode: c.stagecode, by: 'system' }, now),
      );
      if (r) raised++;
    }
    if (batch.length < BATCH) break;
  }
  return raised;
}

/** Critical cases nobody acknowledged in time go to the institution's administrators (once per case). */
export async function sweepEscalations(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await trySweepLock(tx, 1))) return 0;
    const due = await tx
      .select()
      .from(warnCase)
      .where(and(eq(warnCase.state, 'open'), isNotNull(warnCase.escalatedue), lte(warnCase.escalatedue, now)))
      .orderBy(asc(warnCase.escalatedue))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    for (const c of due) {
      await tx.update(warnCase).set({ escalatedue: null, escalatedat: now }).where(eq(warnCase.caseid, c.caseid));
      await tx.insert(caseEvent).values({ caseid: c.caseid, at: now, by: 'system', fromstate: c.state, tostate: c.state, what: 'escalate', note: '' });
      await announce(tx, { kind: 'escalated', caseid: c.caseid, musercode: c.musercode }, now);
      await publishWarnEvent(tx, { kind: 'escalated', caseid: c.caseid, level: c.level as 'critical', musercode: c.musercode });
    }
    return due.length;
  });
}

/** Retry after 1, 2, 4 … minutes; given up after MAX_ATTEMPTS. */
export const MAX_ATTEMPTS = 8;
const backoffMs = (attempts: number) => Math.min(60, 2 ** (attempts - 1)) * 60_000;

/**
 * Sends the outbound messages that are due. Without a channel they are marked 'skipped' (the
 * console notice is all there is). A message is claimed with SKIP LOCKED, so two processes never
 * send one twice; a failure is retried later with a growing delay.
 */
export async function deliverOutbox(db: Db, now: Date, channel: OutboundChannel | null, publicBaseUrl: string): Promise<{ sent: number; failed: number }> {
  let sent = 0;
  let failed = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(warnOutbox)
        .where(and(eq(warnOutbox.status, 'pending'), lte(warnOutbox.nextat, now)))
        .orderBy(asc(warnOutbox.nextat), asc(warnOutbox.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return false;
      if (!channel) {
        await tx.update(warnOutbox).set({ status: 'skipped' }).where(eq(warnOutbox.id, row.id));
        return true;
      }
      const p = row.payload as Omit<OutboundMessage, 'link'>;
      const message: OutboundMessage = { ...p, link: `${publicBaseUrl}/earlyWarning/earlyWarning?caseid=${encodeURIComponent(p.caseid)}` };
      try {
        await channel.send(message);
        await tx.update(warnOutbox).set({ status: 'sent', attempts: row.attempts + 1, lasterror: '' }).where(eq(warnOutbox.id, row.id));
        sent++;
      } catch (err) {
        const attempts = row.attempts + 1;
        await tx
          .update(warnOutbox)
          .set({ attempts, status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending', nextat: new Date(now.getTime() + backoffMs(attempts)), lasterror: String((err as Error).message).slice(0, 500) })
          .where(eq(warnOutbox.id, row.id));
        failed++;
      }
      return true;
    });
    if (!done) break;
  }
  return { sent, failed };
}

/** One round of every sweep. */
export async function runWarningSweeps(db: Db, now: Date, channel: OutboundChannel | null, publicBaseUrl: string) {
  const missed = await sweepMissed(db, now);
  const escalated = await sweepEscalations(db, now);
  const outbox = await deliverOutbox(db, now, channel, publicBaseUrl);
  return { missed, escalated, ...outbox };
}

/** Outbound messages by state (tests and the operations view). */
export async function outboxCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.select({ status: warnOutbox.status, n: sql<number>`count(*)::int` }).from(warnOutbox).groupBy(warnOutbox.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
