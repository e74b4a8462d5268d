import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { storedFile } from '../files/tables.js';

/** Goods an institution sells to its respondents (goodsManagement 00026); price in fen. */
export const goods = pgTable(
  'goods',
  {
    goodsid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    goodsname: text().notNull(),
    coverfileid: text().references(() => storedFile.fileid),
    description: text().notNull().default(''),
    price: integer().notNull(),
    stock: integer().notNull(),
    /** SPEC §3 listing status: 0 to be listed, 1 on sale, 2 delisted. */
    status: integer().notNull().default(0),
    /** What a purchase grants: 'none', 'course' (grantcourseid) or 'plan' (one code of grantplancode). */
    grantkind: text().notNull().default('none'),
    /** Checked to be the institution's when saved; no foreign key, so deleting the course or plan stays its domain's own business (a purchase then fails to grant and is due a refund). */
    grantcourseid: text(),
    grantplancode: text(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('goods_muser_idx').on(t.musercode, t.createdat),
    check('goods_price_check', sql`${t.price} >= 0`),
    check('goods_stock_check', sql`${t.stock} >= 0`),
    check('goods_status_check', sql`${t.status} in (0, 1, 2)`),
    check(
      'goods_grant_check',
      sql`(${t.grantkind} = 'none' and ${t.grantcourseid} is null and ${t.grantplancode} is null) or (${t.grantkind} = 'course' and ${t.grantcourseid} is not null and ${t.grantplancode} is null) or (${t.grantkind} = 'plan' and ${t.grantplancode} is not null and ${t.grantcourseid} is null)`,
    ),
  ],
);

/**
 * An order (SPEC §3 order status). The goods' name and price are copied when it is made. The
 * checks keep the amounts honest whatever code runs: amount = unit price × quantity, refunds never
 * above the amount, 10 only with part refunded and 11 only with all of it.
 */
export const shopOrder = pgTable(
  'shop_order',
  {
    orderid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    goodsid: text()
      .notNull()
      .references(() => goods.goodsid, { onDelete: 'restrict' }),
    goodsname: text().notNull(),
    quantity: integer().notNull(),
    unitprice: integer().notNull(),
    amount: integer().notNull(),
    refunded: integer().notNull().default(0),
    status: integer().notNull(),
    buyername: text().notNull(),
    /** Sealed (kit/crypt), as every phone number at rest; its blind index for the list's exact search. */
    buyerphone: text().notNull(),
    buyerphonehash: text(),
    /** '01' / '02', given when the goods give an assessment (the buyer becomes a person). */
    buyergender: text(),
    provider: text().notNull(),
    /** The provider's reference of the payment (unique per provider). */
    providerref: text(),
    /** SHA-256 of the buyer's secret order token. */
    tokenhash: text().notNull(),
    /**
     * What the order grants, recorded from its goods when it is placed (with the price): fulfilment
     * reads only these, so staff changing the goods later changes no order already made.
     */
    grantkind: text().notNull().default('none'),
    /** The course id (grantkind course) or plan code (plan). */
    grantref: text(),
    /** Until when an unpaid order holds its stock: then it is cancelled, and a payment for it is refused. */
    expiresat: timestamp({ withTimezone: true }).notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    paidat: timestamp({ withTimezone: true }),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('shop_order_muser_idx').on(t.musercode, t.createdat),
    index('shop_order_goods_idx').on(t.goodsid),
    index('shop_order_phone_idx').on(t.musercode, t.buyerphonehash),
    uniqueIndex('shop_order_providerref_idx').on(t.provider, t.providerref),
    uniqueIndex('shop_order_token_idx').on(t.tokenhash),
    check('shop_order_status_check', sql`${t.status} in (1, 2, 3, 4, 5, 10, 11)`),
    check('shop_order_quantity_check', sql`${t.quantity} between 1 and 99`),
    check('shop_order_amount_check', sql`${t.amount} = ${t.unitprice} * ${t.quantity} and ${t.unitprice} >= 0`),
    check(
      'shop_order_refund_check',
      sql`${t.refunded} >= 0 and ${t.refunded} <= ${t.amount} and (${t.status} <> 10 or (${t.refunded} > 0 and ${t.refunded} < ${t.amount})) and (${t.status} <> 11 or ${t.refunded} = ${t.amount}) and (${t.status} in (10, 11) or ${t.refunded} = 0)`,
    ),
    check('shop_order_paid_check', sql`${t.status} not in (3, 10, 11) or ${t.paidat} is not null`),
    check(
      'shop_order_grant_check',
      sql`(${t.grantkind} = 'none' and ${t.grantref} is null) or (${t.grantkind} in ('course', 'plan') and ${t.grantref} is not null)`,
    ),
    index('shop_order_grant_idx').on(t.musercode, t.grantkind, t.grantref),
    index('shop_order_unpaid_idx')
      .on(t.expiresat)
      .where(sql`${t.status} in (1, 2)`),
  ],
);

/** Every status change of an order, in order (its history). */
export const orderEvent = pgTable(
  'order_event',
  {
    orderid: text()
      .notNull()
      .references(() => shopOrder.orderid, { onDelete: 'cascade' }),
    seq: integer().notNull(),
    fromstatus: integer(),
    tostatus: integer().notNull(),
    amount: integer().notNull().default(0),
    note: text().notNull().default(''),
    by: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderid, t.seq] })],
);

/** Payment callbacks taken, by the provider's callback id: a replay finds its id taken and changes nothing. */
export const payCallback = pgTable(
  'pay_callback',
  {
    provider: text().notNull(),
    callbackid: text().notNull(),
    providerref: text().notNull(),
    outcome: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.callbackid] })],
);

/** Settings shared by every process (the sandbox provider's signing secret). */
export const paySetting = pgTable('pay_setting', {
  name: text().primaryKey(),
  value: text().notNull(),
});

/**
 * What a paid order granted, one row per order (the primary key makes fulfilment idempotent: a
 * replayed callback, or a retry, finds the row and adds nothing). A course row with status
 * 'granted' is the buyer's entitlement to the course; a plan row names the assessment code given.
 * 'failed': nothing could be given (reason says why; the order is due a refund); 'revoked': a full
 * refund took it back.
 */
export const orderGrant = pgTable(
  'order_grant',
  {
    orderid: text()
      .primaryKey()
      .references(() => shopOrder.orderid, { onDelete: 'cascade' }),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    kind: text().notNull(),
    /** The course id or plan code, as the order recorded it when it was placed. */
    ref: text().notNull(),
    status: text().notNull(),
    assesscode: text(),
    /** zh and en texts of why nothing was granted or what a refund left. */
    reason: jsonb().$type<{ zh: string; en: string }>(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('order_grant_ref_idx').on(t.musercode, t.kind, t.ref),
    check('order_grant_kind_check', sql`${t.kind} in ('course', 'plan')`),
    check('order_grant_status_check', sql`${t.status} in ('granted', 'failed', 'revoked')`),
    check('order_grant_code_check', sql`${t.kind} = 'plan' or ${t.assesscode} is null`),
  ],
);
