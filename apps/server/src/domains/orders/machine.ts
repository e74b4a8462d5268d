import { and, eq, sql } from 'drizzle-orm';
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
  await tx
    .insert(orderEvent)
    .values({
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

/**
 * Applies a verified provider callback. The callback id is recorded first under a primary key, so
 * a replay (the same callback again, in parallel or later) finds it taken and changes nothing; a
 * callback for an order no longer paying, or for another amount, changes nothing either. A paid
 * order is fulfilled (fulfil.ts) in the same transaction.
 * Answers whether the order changed.
 */
export async function applyNotice(db: DbOrTx, provider: string, n: PaymentNotice, now: Date): Promise<'applied' | 'replayed' | 'ignored'> {
  return db.transaction(async (tx) => {
    const taken = await tx
      .insert(payCallback)
      .values({ provider, callbackid: n.callbackid, providerref: n.providerref, outcome: n.outcome, at: now })
      .onConflictDoNothing()
      .returning();
    if (!taken.length) return 'replayed';
    const [order] = await tx
      .select()
      .from(shopOrder)
      .where(and(eq(shopOrder.provider, provider), eq(shopOrder.providerref, n.providerref)))
      .for('update');
    if (!order || order.status !== 2 || order.amount !== n.amount) return 'ignored';
    const moved = await moveOrder(tx, order.orderid, n.outcome === 'paid' ? 3 : 4, {
      by: provider,
      at: now,
      amount: n.outcome === 'paid' ? n.amount : 0,
      set: n.outcome === 'paid' ? { paidat: now } : {},
    });
    // What the purchase grants is given with the payment, or neither is recorded.
    if (moved.status === 3) await fulfilOrder(tx, moved, now);
    return 'applied';
  });
}
