import type { DbOrTx } from '../../db/database.js';
import { enqueue, type JobHandlers } from '../../kit/jobs/index.js';
import { expireOrder, overdueOrders } from './machine.js';

/**
 * Unpaid orders expire (issue 27 item 8): each order placed queues one job due when it expires
 * (ORDER_EXPIRY_MINUTES after it was made), which cancels it if it is still unpaid; the stock it
 * held goes back (moveOrder). SPEC §3 gains no status: an expired order is "cancelled" (5), its
 * event noted "expired", by "system". A signed payment that arrives later is refused (applyNotice).
 */
export const EXPIRE_JOB = 'orders.expire';
/** Overdue orders one job also sweeps: those made before expiry jobs existed, or whose job failed for good. */
const SWEEP = 100;

/** Queues the expiry of an order, in the transaction that makes it (no order without its job). */
export async function enqueueExpiry(tx: DbOrTx, orderid: string, expiresat: Date, now: Date) {
  await enqueue(tx, EXPIRE_JOB, { orderid }, { now, runAt: expiresat, dedupKey: `${EXPIRE_JOB}:${orderid}`, maxAttempts: 10 });
}

export const orderJobs: JobHandlers = {
  [EXPIRE_JOB]: {
    async run({ orderid }: { orderid: string }, ctx) {
      await expireOrder(ctx.db, orderid, ctx.now());
      for (const other of await overdueOrders(ctx.db, ctx.now(), SWEEP)) await expireOrder(ctx.db, other, ctx.now());
    },
  },
};
