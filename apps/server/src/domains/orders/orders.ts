import { and, asc, desc, eq, gte, lt, lte, or, type SQL } from 'drizzle-orm';
import type { Lang, OrderRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { contains, iso, maskName, maskPhone, offsetOf, paged, streamXlsx, XLSX_TYPE } from '../../kit/index.js';
import { accountNames, ownedBy } from '../accounts/index.js';
import { scopeWhere } from '../auth/index.js';
import { grantNames, grantOut, grantsOf, revokeGrant } from './fulfil.js';
import { goodsInScope } from './goods.js';
import { moveOrder, type OrderRecord } from './machine.js';
import { providerOf } from './payment.js';
import { orderEvent, shopOrder } from './tables.js';
import { buyerPhone, buyerPhoneHash } from './contact.js';

export const noSuchOrder = () => notFound({ zh: '订单不存在', en: 'No such order' });
const by = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;
/** Midnight in China of a calendar date. */
const chinaMidnight = (date: string, plusDays = 0) => new Date(Date.parse(`${date}T00:00:00+08:00`) + plusDays * 86_400_000);

export async function ordersOut(db: DbOrTx, rows: OrderRecord[], lang: Lang): Promise<OrderRow[]> {
  const [names, grants] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    grantsOf(
      db,
      rows.map((r) => r.orderid),
    ),
  ]);
  const titles = await grantNames(db, [...grants.values()]);
  return rows.map((r) => ({
    orderid: r.orderid,
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    goodsid: r.goodsid,
    goodsname: r.goodsname,
    quantity: r.quantity,
    unitprice: r.unitprice,
    amount: r.amount,
    refunded: r.refunded,
    status: r.status as OrderRow['status'],
    buyername: maskName(r.buyername),
    buyerphone: maskPhone(buyerPhone(r.buyerphone)),
    provider: r.provider,
    createdat: iso(r.createdat),
    paidat: r.paidat ? iso(r.paidat) : null,
    grant: grantOut(grants.get(r.orderid), titles, lang),
  }));
}

async function orderInScope(ctx: Ctx, orderid: string): Promise<OrderRecord> {
  const [row] = await ctx.db
    .select()
    .from(shopOrder)
    .where(and(eq(shopOrder.orderid, orderid), scopeWhere(shopOrder.musercode, ctx.me)));
  return row ?? noSuchOrder();
}

type OrderFilters = {
  musercode?: string;
  status?: number;
  goodsid?: string;
  datefrom?: string;
  dateto?: string;
  amountmin?: number;
  amountmax?: number;
  buyer?: string;
};

/** The filters as SQL; an amount range whose minimum is above its maximum is refused. */
function orderWhere(ctx: Ctx, f: OrderFilters): SQL | undefined {
  if (f.amountmin !== undefined && f.amountmax !== undefined && f.amountmin > f.amountmax)
    invalid({ zh: '金额范围的最小值不能大于最大值', en: 'The lowest amount cannot be above the highest' });
  return and(
    ownedBy(ctx, shopOrder.musercode, f.musercode),
    f.status === undefined ? undefined : eq(shopOrder.status, f.status),
    f.goodsid ? eq(shopOrder.goodsid, f.goodsid) : undefined,
    f.datefrom ? gte(shopOrder.createdat, chinaMidnight(f.datefrom)) : undefined,
    f.dateto ? lt(shopOrder.createdat, chinaMidnight(f.dateto, 1)) : undefined,
    f.amountmin === undefined ? undefined : gte(shopOrder.amount, f.amountmin),
    f.amountmax === undefined ? undefined : lte(shopOrder.amount, f.amountmax),
    f.buyer ? or(contains(shopOrder.buyername, f.buyer), eq(shopOrder.buyerphonehash, buyerPhoneHash(f.buyer))) : undefined,
  );
}

const STATUS_TEXT: Record<number, { zh: string; en: string }> = {
  1: { zh: '待支付', en: 'Pending payment' },
  2: { zh: '支付中', en: 'Paying' },
  3: { zh: '已支付', en: 'Paid' },
  4: { zh: '支付失败', en: 'Payment failed' },
  5: { zh: '已取消', en: 'Cancelled' },
  10: { zh: '部分退款', en: 'Partial refund' },
  11: { zh: '已退款', en: 'Refunded' },
};
const yuan = (fen: number) => (fen / 100).toFixed(2);

/** Refunds part or all of what was paid for an order; all of it revokes what it granted (also the demo seed's way in). */
export async function refundOrder(db: DbOrTx, orderid: string, amount: number, note: string, byWho: string, now: Date) {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(shopOrder).where(eq(shopOrder.orderid, orderid)).for('update');
    if (!current) noSuchOrder();
    if (current!.status !== 3 && current!.status !== 10) {
      const st = STATUS_TEXT[current!.status]!;
      conflict({ zh: `只有已支付的订单可以退款（此订单${st.zh}）`, en: `Only a paid order can be refunded (this one: ${st.en})` });
    }
    const left = current!.amount - current!.refunded;
    const refunded = current!.refunded + amount;
    const to = refunded === current!.amount ? 11 : 10;
    const moved = await moveOrder(tx, orderid, to, {
      by: byWho,
      at: now,
      amount,
      note,
      set: { refunded },
      check: () => {
        if (amount > left)
          invalid({
            zh: `退款金额不能超过可退金额 ¥${yuan(left)}`,
            en: `A refund cannot be more than the ¥${yuan(left)} paid and not yet refunded`,
          });
      },
    });
    await providerOf(tx, current!.provider)!.refund({ providerref: current!.providerref ?? '', amount });
    // All paid back: what the purchase granted is taken back too (a part refund leaves it).
    if (to === 11) await revokeGrant(tx, orderid, now);
    return moved;
  });
}

/** Orders of an institution: the list, one order's history, refunding and cancelling, the export. */
export const orderHandlers = {
  'as.m.order.getOrderPage': async ({ page, pageSize, ...f }, ctx) => {
    if (f.goodsid) await goodsInScope(ctx, f.goodsid);
    const query = ctx.db.select().from(shopOrder).where(orderWhere(ctx, f)).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(shopOrder.createdat), asc(shopOrder.orderid)], { page, pageSize });
    return { total, rows: await ordersOut(ctx.db, rows, ctx.lang) };
  },

  'as.m.order.getOrderHistory': async ({ orderid }, ctx) => {
    const row = await orderInScope(ctx, orderid);
    const events = await ctx.db.select().from(orderEvent).where(eq(orderEvent.orderid, orderid)).orderBy(asc(orderEvent.seq));
    const [order] = await ordersOut(ctx.db, [row], ctx.lang);
    return {
      order: order!,
      events: events.map((e) => ({
        seq: e.seq,
        fromstatus: e.fromstatus,
        tostatus: e.tostatus,
        amount: e.amount,
        note: e.note,
        by: e.by,
        at: iso(e.at),
      })),
    };
  },

  'as.m.order.refundOrder': async ({ orderid, amount, note }, ctx) => {
    await orderInScope(ctx, orderid);
    const moved = await refundOrder(ctx.db, orderid, amount, note, by(ctx), ctx.now());
    await ctx.audit({ result: 'ok', detail: { orderid, amount } });
    return (await ordersOut(ctx.db, [moved], ctx.lang))[0]!;
  },

  'as.m.order.cancelOrder': async ({ orderid, note }, ctx) => {
    await orderInScope(ctx, orderid);
    await ctx.db.transaction((tx) => moveOrder(tx, orderid, 5, { by: by(ctx), at: ctx.now(), note }));
    await ctx.audit({ result: 'ok', detail: { orderid } });
    return null;
  },

  'as.m.order.exportOrders': async (f, ctx) => {
    if (f.goodsid) await goodsInScope(ctx, f.goodsid);
    const where = orderWhere(ctx, f);
    const en = ctx.lang === 'en-US';
    const header = en
      ? [
          'Order',
          'Institution',
          'Goods',
          'Quantity',
          'Unit price (¥)',
          'Amount (¥)',
          'Refunded (¥)',
          'Status',
          'Buyer',
          'Phone',
          'Created',
          'Paid',
        ]
      : ['订单号', '机构', '商品', '数量', '单价（元）', '金额（元）', '已退款（元）', '状态', '购买人', '手机号', '下单时间', '支付时间'];
    await ctx.audit({ result: 'ok', detail: { ...f } });
    const body = streamXlsx(en ? 'Orders' : '订单', header, async (add) => {
      for (let page = 1; ; page++) {
        const records = await ctx.db
          .select()
          .from(shopOrder)
          .where(where)
          .orderBy(desc(shopOrder.createdat), asc(shopOrder.orderid))
          .limit(500)
          .offset(offsetOf({ page, pageSize: 500 }));
        const rows = await ordersOut(ctx.db, records, ctx.lang);
        await add(
          rows.map((r) => [
            r.orderid,
            r.insname,
            r.goodsname,
            r.quantity,
            yuan(r.unitprice),
            yuan(r.amount),
            yuan(r.refunded),
            STATUS_TEXT[r.status]![en ? 'en' : 'zh'],
            r.buyername,
            r.buyerphone,
            r.createdat,
            r.paidat ?? '',
          ]),
        );
        if (records.length < 500) break;
      }
    });
    return { filename: en ? 'orders.xlsx' : '订单.xlsx', contentType: XLSX_TYPE, body };
  },
} satisfies HandlerMap;
