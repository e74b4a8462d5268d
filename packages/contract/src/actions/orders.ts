import { z } from 'zod';
import { action, codes, idString, pageFields, pageOf, phone, requiredText, text } from '../catalogue-kit.js';

/**
 * Goods (goodsManagement 00026) and orders (orderManagement 00054, added to the menu table under
 * /operations). Amounts are integers in fen. The order status machine of SPEC §3 is enforced on
 * the server: 1 pending → 2 paying → 3 paid | 4 failed; 1 or 2 → 5 cancelled; 3 → 10 partial
 * refund (again 10) → 11 refunded, or 3 → 11 at once; an unpaid order expires to 5. Payment goes
 * through a provider interface: only the provider's signed callback, verified by the server, pays
 * an order, and no respondent action chooses an outcome. The built-in sandbox provider (development
 * and tests, PAYMENT_PROVIDER=sandbox) has its own cashier page and signs its callbacks (HMAC-SHA256).
 */
const GOODS = codes('00026');
const ORDERS = codes('00054');

export const ORDER_TRANSITIONS: Record<number, number[]> = {
  1: [2, 5],
  2: [3, 4, 5],
  3: [10, 11],
  10: [10, 11],
  4: [],
  5: [],
  11: [],
};
export const orderStatus = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(10), z.literal(11)]);
export const listingStatus = z.union([z.literal(0), z.literal(1), z.literal(2)]);
/** What a purchase grants: nothing, a course of the institution, or one assessment of a plan it may use. */
export const grantKinds = ['none', 'plan', 'course'] as const;
/**
 * What an order granted when it was paid (one row per order): granted; failed (nothing could be
 * given, e.g. the plan's authorised count was used up: the payment stands and the order is due a
 * refund); revoked by a full refund.
 */
export const grantStatus = z.enum(['granted', 'failed', 'revoked']);

/** Highest price of one item: ¥100,000.00. */
export const MAX_PRICE_FEN = 10_000_000;
const fen = z.int().min(0).max(MAX_PRICE_FEN);
const entrytoken = z
  .string()
  .trim()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);
/** The secret a buyer's page holds for its own order (answered when the order is made). */
const ordertoken = z
  .string()
  .trim()
  .regex(/^[0-9a-f]{48}$/);

export const goodsRow = z.object({
  goodsid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  goodsname: z.string(),
  coverfileid: z.string(),
  coverurl: z.string(),
  description: z.string(),
  price: z.int(),
  stock: z.int(),
  status: listingStatus,
  grantkind: z.enum(grantKinds),
  grantcourseid: z.string(),
  grantplancode: z.string(),
  /** The course's title or the plan's name ('' when it no longer exists). */
  grantname: z.string(),
  sold: z.int(),
  createdat: z.string(),
});
export type GoodsRow = z.infer<typeof goodsRow>;

const goodsFields = {
  goodsname: requiredText(50),
  coverfileid: z.union([idString, z.literal('')]).default(''),
  description: text(2000).default(''),
  price: fen,
  stock: z.int().min(0).max(1_000_000),
  grantkind: z.enum(grantKinds).default('none'),
  /** The institution's course a purchase unlocks (grantkind course). */
  grantcourseid: z.union([idString, z.literal('')]).default(''),
  /** The plan a purchase gives one assessment of (grantkind plan): the institution's own or one authorised to it. */
  grantplancode: z.union([idString, z.literal('')]).default(''),
};

/** What one order granted (null: its goods grant nothing, or it was never paid). */
export const orderGrant = z.object({
  kind: z.enum(['plan', 'course']),
  status: grantStatus,
  /** The course id or plan code. */
  ref: z.string(),
  /** The course's title or the plan's name. */
  name: z.string(),
  /** The assessment code given (plan), else ''. */
  assesscode: z.string(),
  /** Why nothing was granted, or what a refund left (a code already used), in the caller's language. */
  reason: z.string(),
  at: z.string(),
});

export const orderRow = z.object({
  orderid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  goodsid: z.string(),
  goodsname: z.string(),
  quantity: z.int(),
  unitprice: z.int(),
  amount: z.int(),
  refunded: z.int(),
  status: orderStatus,
  /** Masked in lists (张*明, 138****1234). */
  buyername: z.string(),
  buyerphone: z.string(),
  provider: z.string(),
  createdat: z.string(),
  paidat: z.string().nullable(),
  grant: orderGrant.nullable(),
});
export type OrderRow = z.infer<typeof orderRow>;

export const orderEvent = z.object({
  seq: z.int(),
  fromstatus: z.int().nullable(),
  tostatus: z.int(),
  amount: z.int(),
  note: z.string(),
  by: z.string(),
  at: z.string(),
});

const orderFilters = {
  musercode: idString.optional(),
  status: orderStatus.optional(),
  goodsid: idString.optional(),
  /** Created from / before (YYYY-MM-DD, China calendar). */
  datefrom: z.iso.date().optional(),
  dateto: z.iso.date().optional(),
  /** Amount range in fen, both ends included (the page asks in yuan); min above max is refused. */
  amountmin: z.int().min(0).optional(),
  amountmax: z.int().min(0).optional(),
  buyer: text(50).optional(),
};

const publicGoods = z.object({
  goodsid: z.string(),
  goodsname: z.string(),
  coverurl: z.string(),
  description: z.string(),
  price: z.int(),
  stock: z.int(),
  grantkind: z.enum(grantKinds),
  grantname: z.string(),
});
/** What the buyer sees of their order, with what it granted them. */
const publicOrder = z.object({
  orderid: z.string(),
  goodsname: z.string(),
  quantity: z.int(),
  amount: z.int(),
  refunded: z.int(),
  status: orderStatus,
  createdat: z.string(),
  grant: z
    .object({
      kind: z.enum(['plan', 'course']),
      status: grantStatus,
      name: z.string(),
      /** The course unlocked (course). */
      courseid: z.string(),
      /** The assessment code and its page (plan; '' once revoked). */
      assesscode: z.string(),
      url: z.string(),
      reason: z.string(),
    })
    .nullable(),
});

export const orderActions = {
  'as.m.goods.getGoodsPage': action({
    access: GOODS,
    kind: 'json',
    op: 'list',
    summary: 'Goods of the caller’s institutions (or of one musercode), newest first; filter by name and listing status.',
    input: z.strictObject({
      musercode: idString.optional(),
      goodsname: text(50).optional(),
      status: listingStatus.optional(),
      ...pageFields,
    }),
    output: pageOf(goodsRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.goods.insertGoods': action({
    access: GOODS,
    kind: 'json',
    op: 'write',
    summary:
      'Create goods (to be listed) for the caller or an institution in scope; price in fen; the cover an image of that institution’s file store.',
    input: z.strictObject({ musercode: idString.optional(), ...goodsFields }),
    output: z.object({ goodsid: z.string() }),
    ids: { musercode: 'muser', coverfileid: 'file', grantcourseid: 'course', grantplancode: 'plan' },
  }),
  'as.m.goods.updateGoods': action({
    access: GOODS,
    kind: 'json',
    op: 'write',
    summary: 'Change goods in scope; orders keep the name and price they were made with.',
    input: z.strictObject({ goodsid: idString, ...goodsFields }),
    output: z.null(),
    ids: { goodsid: 'goods', coverfileid: 'file', grantcourseid: 'course', grantplancode: 'plan' },
  }),
  'as.m.goods.getGrantOptions': action({
    access: GOODS,
    kind: 'json',
    op: 'list',
    summary:
      'What goods of an institution in scope (default the caller) can grant: its courses, and the plans it may give (its own, and those authorised to it now, with the count left).',
    input: z.strictObject({ musercode: idString.optional() }),
    output: z.object({
      courses: z.array(z.object({ courseid: z.string(), title: z.string(), enabled: z.int() })),
      plans: z.array(z.object({ plancode: z.string(), planname: z.string(), own: z.boolean(), remaining: z.int().nullable() })),
    }),
    ids: { musercode: 'muser' },
  }),
  'as.m.goods.setGoodsStatus': action({
    access: GOODS,
    kind: 'json',
    op: 'write',
    summary: 'List (1 on sale), delist (2) or set back to be listed (0) goods in scope.',
    input: z.strictObject({ goodsid: idString, status: listingStatus }),
    output: z.null(),
    ids: { goodsid: 'goods' },
  }),
  'as.m.goods.deleteGoods': action({
    access: GOODS,
    kind: 'json',
    op: 'write',
    summary: 'Delete goods in scope; refused (conflict) once it has orders: delist it instead.',
    input: z.strictObject({ goodsid: idString }),
    output: z.null(),
    ids: { goodsid: 'goods' },
  }),
  'as.m.order.getOrderPage': action({
    access: ORDERS,
    kind: 'json',
    op: 'list',
    summary:
      'Orders of the caller’s institutions, newest first; filter by status, goods, date, amount and buyer; buyer name and phone masked.',
    input: z.strictObject({ ...orderFilters, ...pageFields }),
    output: pageOf(orderRow),
    ids: { musercode: 'muser', goodsid: 'goods' },
  }),
  'as.m.order.getOrderHistory': action({
    access: ORDERS,
    kind: 'json',
    op: 'read',
    summary: 'One order in scope with every status change (from, to, amount, note, who, when) and what it granted.',
    input: z.strictObject({ orderid: idString }),
    output: z.object({ order: orderRow, events: z.array(orderEvent) }),
    ids: { orderid: 'order' },
  }),
  'as.m.order.refundOrder': action({
    access: ORDERS,
    kind: 'json',
    op: 'write',
    summary:
      'Refund a paid order in scope, fully or partly (fen); never more than paid and not yet refunded. Status 10 partial refund, or 11 once all is refunded.',
    input: z.strictObject({
      orderid: idString,
      amount: z
        .int()
        .min(1)
        .max(MAX_PRICE_FEN * 99),
      note: text(200).default(''),
    }),
    output: orderRow,
    ids: { orderid: 'order' },
  }),
  'as.m.order.cancelOrder': action({
    access: ORDERS,
    kind: 'json',
    op: 'write',
    summary: 'Cancel an unpaid order (status 1 or 2) in scope; its stock is given back.',
    input: z.strictObject({ orderid: idString, note: text(200).default('') }),
    output: z.null(),
    ids: { orderid: 'order' },
  }),
  'as.m.order.exportOrders': action({
    access: ORDERS,
    kind: 'download',
    op: 'export',
    summary: 'The filtered order list as .xlsx (streamed; buyer name and phone masked; audited).',
    input: z.strictObject(orderFilters),
    output: z.unknown(),
    ids: { musercode: 'muser', goodsid: 'goods' },
  }),
  'as.c.shop.getGoods': action({
    access: 'public',
    kind: 'json',
    op: 'list',
    summary:
      'Goods on sale of the institution of a QR entry (rate-limited per address); `ordering` false when no payment provider is configured (PAYMENT_PROVIDER=none): goods are listed but no order is taken.',
    input: z.strictObject({ entrytoken }),
    output: z.object({ insname: z.string(), title: z.string(), ordering: z.boolean(), rows: z.array(publicGoods) }),
  }),
  'as.c.shop.createOrder': action({
    access: 'public',
    kind: 'json',
    op: 'write',
    summary:
      'Order goods on sale of the institution of a QR entry (stock taken in one conditional update; the order records the price and what the goods grant now, and expires unpaid after ORDER_EXPIRY_MINUTES) and start paying with the configured provider: answers the order, its secret ordertoken and the payment, whose cashierurl is where the buyer pays (the provider then sends its signed callback, the only thing that pays an order). Refused (conflict) when no provider is configured. Rate-limited per address.',
    input: z.strictObject({
      entrytoken,
      goodsid: idString,
      quantity: z.int().min(1).max(99),
      buyername: requiredText(50),
      buyerphone: phone.pipe(z.string().regex(/^1[3-9][0-9]{9}$/)),
      /** Needed when the goods give an assessment (the buyer becomes a person of the institution). */
      buyergender: z.enum(['01', '02']).optional(),
    }),
    output: z.object({
      order: publicOrder,
      ordertoken: z.string(),
      payment: z.object({ provider: z.string(), providerref: z.string(), amount: z.int(), cashierurl: z.string() }),
    }),
    ids: { goodsid: 'goods' },
  }),
  'as.c.shop.getOrder': action({
    access: 'public',
    kind: 'json',
    op: 'read',
    summary:
      'The buyer’s own order, by its secret ordertoken, with what it granted (the course unlocked, or the assessment code and its page).',
    input: z.strictObject({ ordertoken }),
    output: publicOrder,
  }),
};
