import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import type { GoodsRow, Lang, OrderRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { iso, newId } from '../../kit/index.js';
import { accountNames } from '../accounts/index.js';
import { codeUrl, limitedEntry, resolveEntryToken } from '../assessments/index.js';
import { fileUrls } from '../files/index.js';
import { grantNames } from './fulfil.js';
import { hashOrderToken as hashToken } from './grants.js';
import { enqueueExpiry } from './expiry.js';
import { grantRef, noSuchGoods } from './goods.js';
import { moveOrder, type OrderRecord } from './machine.js';
import { noSuchOrder, ordersOut } from './orders.js';
import { activeProvider, type PaymentProvider } from './payment.js';
import { goods, orderEvent, shopOrder } from './tables.js';
import { buyerPhoneColumns } from './contact.js';

/** The buyer's view of their order: what it granted, the course to open or the assessment code to start. */
async function publicOrder(db: DbOrTx, r: OrderRecord, lang: Lang) {
  const [row] = await ordersOut(db, [r], lang);
  const g = row!.grant;
  return {
    orderid: r.orderid,
    goodsname: r.goodsname,
    quantity: r.quantity,
    amount: r.amount,
    refunded: r.refunded,
    status: r.status as OrderRow['status'],
    createdat: iso(r.createdat),
    grant: g && {
      kind: g.kind,
      status: g.status,
      name: g.name,
      courseid: g.kind === 'course' ? g.ref : '',
      assesscode: g.status === 'granted' ? g.assesscode : '',
      url: g.status === 'granted' && g.assesscode ? codeUrl(g.assesscode) : '',
      reason: g.reason,
    },
  };
}

async function entryOf(db: DbOrTx, entrytoken: string) {
  return (
    (await resolveEntryToken(db, entrytoken)) ??
    notFound({
      zh: '二维码已失效，请向机构索取新的二维码',
      en: 'This QR code is no longer valid; please ask the institution for a new one',
    })
  );
}

async function orderByToken(db: DbOrTx, ordertoken: string): Promise<OrderRecord> {
  const [row] = await db
    .select()
    .from(shopOrder)
    .where(eq(shopOrder.tokenhash, hashToken(ordertoken)));
  return row ?? noSuchOrder();
}

export interface NewOrder {
  musercode: string;
  goodsid: string;
  quantity: number;
  buyername: string;
  buyerphone: string;
  /** Needed when the goods give an assessment. */
  buyergender?: '01' | '02';
  now: Date;
  /** Who collects the payment (the configured provider; the demo seed's sandbox). */
  provider: PaymentProvider;
  /** Minutes the order holds its stock unpaid (ORDER_EXPIRY_MINUTES). */
  expiryMinutes: number;
  /** Where the provider's cashier sends the buyer back, for the new order's id. */
  returnTo: (orderid: string) => string;
}

/**
 * Makes an order of goods on sale of an institution and starts paying it with the provider given:
 * stock is taken in one conditional UPDATE (never below 0, only while on sale, so parallel buyers
 * never oversell), the order records the price and what the goods grant now (fulfilment reads only
 * that), its expiry is queued in the same transaction, and it is 1 pending and then 2 paying. Also
 * the demo seed's way in.
 */
export async function placeOrder(db: DbOrTx, o: NewOrder) {
  const ordertoken = randomBytes(24).toString('hex');
  const orderid = newId('OR');
  const { provider } = o;
  const expiresat = new Date(o.now.getTime() + o.expiryMinutes * 60_000);
  const result = await db.transaction(async (tx) => {
    const [item] = await tx
      .update(goods)
      .set({ stock: sql`${goods.stock} - ${o.quantity}` })
      .where(and(eq(goods.goodsid, o.goodsid), eq(goods.musercode, o.musercode), eq(goods.status, 1), gte(goods.stock, o.quantity)))
      .returning();
    if (!item) {
      const [exists] = await tx
        .select({ status: goods.status })
        .from(goods)
        .where(and(eq(goods.goodsid, o.goodsid), eq(goods.musercode, o.musercode)));
      if (!exists || exists.status !== 1) noSuchGoods();
      conflict({ zh: '库存不足', en: 'Not enough in stock' });
    }
    // An assessment is given to a new person of the institution, whose gender scoring needs.
    if (item!.grantkind === 'plan' && !o.buyergender)
      invalid({ zh: '购买测评需填写性别', en: 'Please give your gender: this purchase includes an assessment' });
    const grant = grantRef(item!);
    await tx.insert(shopOrder).values({
      orderid,
      musercode: o.musercode,
      goodsid: item!.goodsid,
      goodsname: item!.goodsname,
      quantity: o.quantity,
      unitprice: item!.price,
      amount: item!.price * o.quantity,
      status: 1,
      buyername: o.buyername,
      ...buyerPhoneColumns(o.buyerphone),
      buyergender: o.buyergender ?? null,
      provider: provider.name,
      tokenhash: hashToken(ordertoken),
      grantkind: grant.kind,
      grantref: grant.kind === 'none' ? null : grant.ref,
      expiresat,
      createdat: o.now,
      updatedat: o.now,
    });
    await tx
      .insert(orderEvent)
      .values({ orderid, seq: 1, fromstatus: null, tostatus: 1, amount: item!.price * o.quantity, note: '', by: 'buyer', at: o.now });
    await enqueueExpiry(tx, orderid, expiresat, o.now);
    const { providerref, cashierurl } = await provider.start(
      {
        orderid,
        amount: item!.price * o.quantity,
        subject: item!.goodsname,
        returnurl: o.returnTo(orderid),
        expiresat,
      },
      tx,
    );
    const paying = await moveOrder(tx, orderid, 2, { by: provider.name, at: o.now, set: { providerref } });
    return { paying, providerref, cashierurl };
  });
  return {
    order: result.paying,
    ordertoken,
    payment: { provider: provider.name, providerref: result.providerref, amount: result.paying.amount, cashierurl: result.cashierurl },
  };
}

const noProvider = () =>
  conflict({ zh: '暂未开通在线支付，不能下单', en: 'Online payment is not available here, so orders cannot be placed' });

/** The respondent's shop: the goods on sale through an entry, ordering them, and the buyer's order. */
export const shopHandlers = {
  'as.c.shop.getGoods': async ({ entrytoken }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      const rows = await ctx.db
        .select()
        .from(goods)
        .where(and(eq(goods.musercode, entry.musercode), eq(goods.status, 1)))
        .orderBy(desc(goods.createdat), asc(goods.goodsid))
        .limit(100);
      const covers = await fileUrls(
        ctx.db,
        rows.map((r) => r.coverfileid),
      );
      const insname = (await accountNames(ctx.db, [entry.musercode])).get(entry.musercode) ?? '';
      const granted = await grantNames(ctx.db, rows.map(grantRef));
      return {
        insname,
        title: entry.title,
        ordering: activeProvider(ctx.db, ctx.config) !== null,
        rows: rows.map((r) => ({
          goodsid: r.goodsid,
          goodsname: r.goodsname,
          coverurl: r.coverfileid ? (covers.get(r.coverfileid) ?? '') : '',
          description: r.description,
          price: r.price,
          stock: r.stock,
          grantkind: r.grantkind as GoodsRow['grantkind'],
          grantname: granted.get(grantRef(r).ref ?? '') ?? '',
        })),
      };
    }),

  'as.c.shop.createOrder': async ({ entrytoken, goodsid, quantity, buyername, buyerphone, buyergender }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      // No provider configured: goods are shown, but nothing can be paid, so nothing is ordered.
      const provider = activeProvider(ctx.db, ctx.config) ?? noProvider();
      const placed = await placeOrder(ctx.db, {
        musercode: entry.musercode,
        goodsid,
        quantity,
        buyername,
        buyerphone,
        buyergender,
        now: ctx.now(),
        provider,
        expiryMinutes: ctx.config.orderExpiryMinutes,
        returnTo: (orderid) => `/r/${encodeURIComponent(entrytoken)}/shop?order=${orderid}`,
      });
      return { order: await publicOrder(ctx.db, placed.order, ctx.lang), ordertoken: placed.ordertoken, payment: placed.payment };
    }),

  'as.c.shop.getOrder': async ({ ordertoken }, ctx) => publicOrder(ctx.db, await orderByToken(ctx.db, ordertoken), ctx.lang),
} satisfies HandlerMap;
