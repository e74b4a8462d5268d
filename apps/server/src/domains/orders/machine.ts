import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { ORDER_TRANSITIONS, OrderStatus } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { AppError, conflict } from '../../http/errors.js';
import { fulfilOrder } from './fulfil.js';
import type { PaymentNotice } from './payment.js';
import { goods, orderEvent, payCallback, shopOrder } from './tables.js';

export type OrderRecord = typeof shopOrder.$inferSelect;

const label = (s: number) => OrderStatus.find((o) => o.value === s) ?? { zh: String(s), en: String(s) };

export const transitionRefused = (from: number, to: number): never =>
  conflict({
    zh: `订单状态不能从“${label(from).zh}”变为“${label(to).zh}”`,
    en: `An order cannot go from “${label(from).en}” to “${label(to).en}”`,
  });

/**
 * Moves an order from its current status to `to`, if SPEC §3 allows that step (ORDER_TRANSITIONS),
 * with its event appended; the row is locked first (FOR UPDATE), so two requests or callbacks for
 * one order take turns and the second sees the first's result. `check` may refuse on the locked row.
 */
export async function moveOrder(
  tx: DbOrTx,
  orderid: string,
  to: number,
  e: { by: string; at: Date; amount?: number; note?: string; set?: Partial<OrderRecord>; check?: (o: OrderRecord) => void },
): Promise<OrderRecord> {
  const [order] = await tx.select().from(shopOrder).where(eq(shopOrder.orderid, orderid)).for('update');
  if (!order) throw new AppError('notFound');
  if (!ORDER_TRANSITIONS[order.status]?.includes(to)) transitionRefused(order.status, to);
  e.check?.(order);
  const [moved] = await tx
    .update(shopOrder)
    .set({ ...e.set, status: to, updatedat: e.at })
    .where(and(eq(shopOrder.orderid, orderid), eq(shopOrder.status, order.status)))
    .returning();
  if (!moved) transitionRefused(order.status, to);
  const [last] = await tx
    .select({ n: sql<number>`coalesce(max(${orderEvent.seq}), 0)::int` })
    .from(orderEvent)
    .where(eq(orderEvent.orderid, orderid));
  await tx.insert(orderEvent).values({
    orderid,
    seq: Number(last!.n) + 1,
    fromstatus: order.status,
    tostatus: to,
    amount: e.amount ?? 0,
    note: e.note ?? '',
    by: e.by,
    at: e.at,
  });
  // Cancelled or failed before payment: the stock taken is given back.
  if (to === 5 || to === 4)
    await tx
      .update(goods)
      .set({ stock: sql`${goods.stock} + ${order.quantity}` })
      .where(eq(goods.goodsid, order.goodsid));
  return moved!;
}

/** What a verified callback did: paid or failed the order; a replay; nothing (not paying, another amount); refused as the order had expired. */
export type NoticeResult = 'applied' | 'replayed' | 'ignored' | 'expired';

/**
 * Applies a verified provider callback. The callback id is recorded first under a primary key, so
 * a replay (the same callback again, in parallel or later) finds it taken and changes nothing; a
 * callback for an order no longer paying, or for another amount, changes nothing either. An order
 * past its expiry is never paid: one still paying is cancelled now (as the expiry job would) and the
 * answer is 'expired', as it is for one the job cancelled already. A paid order is fulfilled
 * (fulfil.ts) in the same transaction.
 */
export async function applyNotice(
  db: DbOrTx,
  provider: string,
  n: PaymentNotice,
  now: Date,
): Promise<{ result: NoticeResult; orderid?: string }> {
  return db.transaction(async (tx) => {
    const taken = await tx
      .insert(payCallback)
      .values({ provider, callbackid: n.callbackid, providerref: n.providerref, outcome: n.outcome, at: now })
      .onConflictDoNothing()
      .returning();
    if (!taken.length) return { result: 'replayed' };
    const [order] = await tx
      .select()
      .from(shopOrder)
      .where(and(eq(shopOrder.provider, provider), eq(shopOrder.providerref, n.providerref)))
      .for('update');
    if (!order) return { result: 'ignored' };
    const orderid = order.orderid;
    const expired = order.expiresat.getTime() <= now.getTime();
    if (expired && order.status === 2) {
      await expireLocked(tx, order, now);
      return { result: 'expired', orderid };
    }
    if (expired && order.status === 5) return { result: 'expired', orderid };
    if (order.status !== 2 || order.amount !== n.amount) return { result: 'ignored', orderid };
    const moved = await moveOrder(tx, orderid, n.outcome === 'paid' ? 3 : 4, {
      by: provider,
      at: now,
      amount: n.outcome === 'paid' ? n.amount : 0,
      set: n.outcome === 'paid' ? { paidat: now } : {},
    });
    // What the purchase grants is given with the payment, or neither is recorded.
    if (moved.status === 3) await fulfilOrder(tx, moved, now);
    return { result: 'applied', orderid };
  });
}

/** Cancels an unpaid order whose time is up (its stock goes back, moveOrder); the order row is locked by the caller. */
async function expireLocked(tx: DbOrTx, order: OrderRecord, now: Date) {
  await moveOrder(tx, order.orderid, 5, { by: 'system', at: now, note: 'expired' });
}

/** Expires one order if it is still unpaid and its time is up; answers whether it did. */
export async function expireOrder(db: DbOrTx, orderid: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(shopOrder).where(eq(shopOrder.orderid, orderid)).for('update');
    if (!order || (order.status !== 1 && order.status !== 2) || order.expiresat.getTime() > now.getTime()) return false;
    await expireLocked(tx, order, now);
    return true;
  });
}

/** Unpaid orders whose time is up (at most `limit`, oldest first): what an expiry job also sweeps. */
export async function overdueOrders(db: DbOrTx, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ orderid: shopOrder.orderid })
    .from(shopOrder)
    .where(and(inArray(shopOrder.status, [1, 2]), lte(shopOrder.expiresat, now)))
    .orderBy(asc(shopOrder.expiresat))
    .limit(limit);
  return rows.map((r) => r.orderid);
}
