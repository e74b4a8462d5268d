import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { GoodsRow, Lang, OrderRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import {
  contains,
  iso,
  maskName,
  maskPhone,
  newId,
  offsetOf,
  ownedBy,
  ownerAccount,
  paged,
  streamXlsx,
  todayIn,
  XLSX_TYPE,
} from '../../kit/index.js';
import { accountNames } from '../accounts/accounts.js';
import { scopeWhere } from '../auth/scope.js';
import { limitedEntry } from '../assessments/respondent.js';
import { resolveEntryToken } from '../assessments/entry.js';
import { fileUrl, noSuchFile, setFileUses, usableFiles } from '../files/files.js';
import { storedFile } from '../files/tables.js';
import { codeUrl } from '../assessments/codes.js';
import { coursesOfInstitution } from '../content/media.js';
import { assertPlanHasItemText, usablePlans } from '../plans/usage.js';
import { grantNames, grantOut, grantsOf, revokeGrant } from './fulfil.js';
import { hashOrderToken as hashToken } from './grants.js';
import { enqueueExpiry } from './expiry.js';
import { moveOrder, type OrderRecord } from './machine.js';
import { activeProvider, providerOf, type PaymentProvider } from './payment.js';
import { goods, orderEvent, shopOrder } from './tables.js';

type GoodsRecord = typeof goods.$inferSelect;

const noSuchGoods = () => notFound({ zh: '商品不存在', en: 'No such goods' });
const noSuchOrder = () => notFound({ zh: '订单不存在', en: 'No such order' });
const by = (ctx: Ctx) => ctx.me.userid ?? ctx.me.musercode;
/** Midnight in China of a calendar date. */
const chinaMidnight = (date: string, plusDays = 0) => new Date(Date.parse(`${date}T00:00:00+08:00`) + plusDays * 86_400_000);

async function coverUrls(db: DbOrTx, ids: (string | null)[]): Promise<Map<string, string>> {
  const list = [...new Set(ids.filter((x): x is string => !!x))];
  if (!list.length) return new Map();
  const rows = await db.select({ fileid: storedFile.fileid, key: storedFile.key }).from(storedFile).where(inArray(storedFile.fileid, list));
  return new Map(rows.map((r) => [r.fileid, fileUrl(r.key)]));
}

/** The course or plan goods grant. */
const grantRef = (r: GoodsRecord) => ({
  musercode: r.musercode,
  kind: r.grantkind,
  ref: r.grantkind === 'course' ? r.grantcourseid : r.grantplancode,
});

async function goodsOut(db: DbOrTx, rows: GoodsRecord[]): Promise<GoodsRow[]> {
  const ids = rows.map((r) => r.goodsid);
  const [names, covers, sold, granted] = await Promise.all([
    accountNames(
      db,
      rows.map((r) => r.musercode),
    ),
    coverUrls(
      db,
      rows.map((r) => r.coverfileid),
    ),
    ids.length
      ? db
          .select({ goodsid: shopOrder.goodsid, n: sql<number>`coalesce(sum(${shopOrder.quantity}), 0)::int` })
          .from(shopOrder)
          .where(and(inArray(shopOrder.goodsid, ids), inArray(shopOrder.status, [3, 10, 11])))
          .groupBy(shopOrder.goodsid)
      : [],
    grantNames(db, rows.map(grantRef)),
  ]);
  const soldBy = new Map(sold.map((s) => [s.goodsid, Number(s.n)]));
  return rows.map((r) => ({
    goodsid: r.goodsid,
    musercode: r.musercode,
    insname: names.get(r.musercode) ?? '',
    goodsname: r.goodsname,
    coverfileid: r.coverfileid ?? '',
    coverurl: r.coverfileid ? (covers.get(r.coverfileid) ?? '') : '',
    description: r.description,
    price: r.price,
    stock: r.stock,
    status: r.status as GoodsRow['status'],
    grantkind: r.grantkind as GoodsRow['grantkind'],
    grantcourseid: r.grantcourseid ?? '',
    grantplancode: r.grantplancode ?? '',
    grantname: granted.get(grantRef(r).ref ?? '') ?? '',
    sold: soldBy.get(r.goodsid) ?? 0,
    createdat: iso(r.createdat),
  }));
}

async function ordersOut(db: DbOrTx, rows: OrderRecord[], lang: Lang): Promise<OrderRow[]> {
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
    buyerphone: maskPhone(r.buyerphone),
    provider: r.provider,
    createdat: iso(r.createdat),
    paidat: r.paidat ? iso(r.paidat) : null,
    grant: grantOut(grants.get(r.orderid), titles, lang),
  }));
}

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

async function goodsInScope(ctx: Ctx, goodsid: string): Promise<GoodsRecord> {
  const [row] = await ctx.db
    .select()
    .from(goods)
    .where(and(eq(goods.goodsid, goodsid), scopeWhere(goods.musercode, ctx.me)));
  return row ?? noSuchGoods();
}

async function orderInScope(ctx: Ctx, orderid: string): Promise<OrderRecord> {
  const [row] = await ctx.db
    .select()
    .from(shopOrder)
    .where(and(eq(shopOrder.orderid, orderid), scopeWhere(shopOrder.musercode, ctx.me)));
  return row ?? noSuchOrder();
}

async function checkCover(db: DbOrTx, musercode: string, coverfileid: string) {
  if (!coverfileid) return;
  const { bad, missing } = await usableFiles(db, musercode, [{ fileid: coverfileid, use: 'image' }]);
  if (missing) noSuchFile();
  if (bad) invalid({ zh: '封面须为本机构已上传的图片', en: 'The cover must be a picture uploaded by the institution' });
}

type GrantInput = { grantkind: 'none' | 'course' | 'plan'; grantcourseid: string; grantplancode: string };

/**
 * The course or plan goods grant must be the institution's own course, or a plan it may give
 * today (its own, or one authorised to it). Any course or plan named is checked, whichever kind
 * is chosen: another institution's is "not found". Answers the columns to store (only the
 * reference of the chosen kind).
 */
async function checkGrant(db: DbOrTx, musercode: string, g: GrantInput, today: string) {
  if (g.grantcourseid && !(await coursesOfInstitution(db, musercode, [g.grantcourseid])).length)
    notFound({ zh: '课程不存在', en: 'No such course' });
  if (g.grantplancode && !(await usablePlans(db, musercode, today, g.grantplancode)).length)
    notFound({ zh: '计划不存在，或未授权给本机构', en: 'No such plan, or it is not authorised to this institution' });
  if (g.grantkind === 'course' && !g.grantcourseid) invalid({ zh: '请选择购买后开通的课程', en: 'Choose the course a purchase unlocks' });
  if (g.grantkind === 'plan' && !g.grantplancode)
    invalid({ zh: '请选择购买后发放的测评计划', en: 'Choose the plan a purchase gives an assessment of' });
  // A buyer would pay for forms nobody may answer (the code is refused at payment).
  if (g.grantkind === 'plan') await assertPlanHasItemText(db, g.grantplancode);
  return {
    grantkind: g.grantkind,
    grantcourseid: g.grantkind === 'course' ? g.grantcourseid : null,
    grantplancode: g.grantkind === 'plan' ? g.grantplancode : null,
  };
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
    f.buyer ? or(contains(shopOrder.buyername, f.buyer), sql`${shopOrder.buyerphone} = ${f.buyer}`) : undefined,
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
      buyerphone: o.buyerphone,
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

export const orderHandlers = {
  'as.m.goods.getGoodsPage': async ({ musercode, goodsname, status, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, goods.musercode, musercode),
      contains(goods.goodsname, goodsname),
      status === undefined ? undefined : eq(goods.status, status),
    );
    const { total, rows } = await paged(
      ctx.db,
      ctx.db.select().from(goods).where(where).$dynamic(),
      [desc(goods.createdat), asc(goods.goodsid)],
      { page, pageSize },
    );
    return { total, rows: await goodsOut(ctx.db, rows) };
  },

  'as.m.goods.insertGoods': async ({ musercode, grantkind, grantcourseid, grantplancode, ...g }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    await checkCover(ctx.db, owner.musercode, g.coverfileid);
    const grant = await checkGrant(ctx.db, owner.musercode, { grantkind, grantcourseid, grantplancode }, todayIn(ctx.now()));
    const goodsid = newId('GD');
    await ctx.db.transaction(async (tx) => {
      await tx.insert(goods).values({
        ...g,
        ...grant,
        goodsid,
        musercode: owner.musercode,
        coverfileid: g.coverfileid || null,
        status: 0,
        createdat: ctx.now(),
        updatedat: ctx.now(),
      });
      await setFileUses(tx, 'goods', goodsid, g.coverfileid ? [g.coverfileid] : []);
    });
    await ctx.audit({ action: 'as.m.goods.insertGoods', result: 'ok', detail: { goodsid, target: owner.musercode } });
    return { goodsid };
  },

  'as.m.goods.updateGoods': async ({ goodsid, grantkind, grantcourseid, grantplancode, ...g }, ctx) => {
    const row = await goodsInScope(ctx, goodsid);
    await checkCover(ctx.db, row.musercode, g.coverfileid);
    const grant = await checkGrant(ctx.db, row.musercode, { grantkind, grantcourseid, grantplancode }, todayIn(ctx.now()));
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(goods)
        .set({ ...g, ...grant, coverfileid: g.coverfileid || null, updatedat: ctx.now() })
        .where(eq(goods.goodsid, goodsid));
      await setFileUses(tx, 'goods', goodsid, g.coverfileid ? [g.coverfileid] : []);
    });
    await ctx.audit({ action: 'as.m.goods.updateGoods', result: 'ok', detail: { goodsid } });
    return null;
  },

  'as.m.goods.getGrantOptions': async ({ musercode }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const [courses, plans] = await Promise.all([
      coursesOfInstitution(ctx.db, owner.musercode),
      usablePlans(ctx.db, owner.musercode, todayIn(ctx.now())),
    ]);
    return { courses, plans };
  },

  'as.m.goods.setGoodsStatus': async ({ goodsid, status }, ctx) => {
    await goodsInScope(ctx, goodsid);
    await ctx.db.update(goods).set({ status, updatedat: ctx.now() }).where(eq(goods.goodsid, goodsid));
    await ctx.audit({ action: 'as.m.goods.setGoodsStatus', result: 'ok', detail: { goodsid, status } });
    return null;
  },

  'as.m.goods.deleteGoods': async ({ goodsid }, ctx) => {
    await goodsInScope(ctx, goodsid);
    const [used] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(shopOrder)
      .where(eq(shopOrder.goodsid, goodsid));
    const hasOrders = () =>
      conflict({ zh: '该商品已有订单，不能删除，请改为下架', en: 'These goods have orders and cannot be deleted; delist them instead' });
    if (Number(used!.n)) hasOrders();
    try {
      await ctx.db.transaction(async (tx) => {
        await setFileUses(tx, 'goods', goodsid, []);
        await tx.delete(goods).where(eq(goods.goodsid, goodsid));
      });
    } catch (err) {
      if ((err as { cause?: { code?: string } })?.cause?.code === '23503' || (err as { code?: string })?.code === '23503') hasOrders();
      throw err;
    }
    await ctx.audit({ action: 'as.m.goods.deleteGoods', result: 'ok', detail: { goodsid } });
    return null;
  },

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
    await ctx.audit({ action: 'as.m.order.refundOrder', result: 'ok', detail: { orderid, amount } });
    return (await ordersOut(ctx.db, [moved], ctx.lang))[0]!;
  },

  'as.m.order.cancelOrder': async ({ orderid, note }, ctx) => {
    await orderInScope(ctx, orderid);
    await ctx.db.transaction((tx) => moveOrder(tx, orderid, 5, { by: by(ctx), at: ctx.now(), note }));
    await ctx.audit({ action: 'as.m.order.cancelOrder', result: 'ok', detail: { orderid } });
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
    await ctx.audit({ action: 'as.m.order.exportOrders', result: 'ok', detail: { ...f } });
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

  'as.c.shop.getGoods': async ({ entrytoken }, ctx) =>
    limitedEntry(ctx, async () => {
      const entry = await entryOf(ctx.db, entrytoken);
      const rows = await ctx.db
        .select()
        .from(goods)
        .where(and(eq(goods.musercode, entry.musercode), eq(goods.status, 1)))
        .orderBy(desc(goods.createdat), asc(goods.goodsid))
        .limit(100);
      const covers = await coverUrls(
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
