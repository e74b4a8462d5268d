import type { DbOrTx } from '../../db/database.js';
import { enqueue } from '../../kit/jobs/index.js';
import type { OutboundMessage } from './channel.js';

/**
 * What raising a warning queues (raise.ts): an outbound message, and a critical case's escalation.
 * The jobs run in jobs.ts, which calls raise.ts; queueing them here keeps the two from importing
 * each other.
 */
export const DELIVER_JOB = 'warnings.deliver';
export const ESCALATE_JOB = 'warnings.escalate';
const DELIVERY_ATTEMPTS = 8;

export async function enqueueDelivery(tx: DbOrTx, message: Omit<OutboundMessage, 'link'>, now: Date) {
  await enqueue(tx, DELIVER_JOB, message, { now, maxAttempts: DELIVERY_ATTEMPTS });
}

/** The escalation of a case at its due time; one job per case ever (a case's clock starts once). */
export async function enqueueEscalation(tx: DbOrTx, caseid: string, due: Date, now: Date) {
  await enqueue(tx, ESCALATE_JOB, { caseid }, { now, runAt: due, dedupKey: `${ESCALATE_JOB}:${caseid}` });
}
