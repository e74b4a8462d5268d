import { eq, inArray } from 'drizzle-orm';
import type { Lang, OrderRow } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { AppError, type Message } from '../../http/errors.js';
import { iso } from '../../kit/index.js';
import { issueBoughtCode, withdrawIfUnopened } from '../assessments/index.js';
import { coursesOfInstitution } from '../content/index.js';
import { planNames } from '../plans/index.js';
import { orderGrant, shopOrder } from './tables.js';
import { buyerPhone } from './contact.js';

/**
 * Fulfilment: what a paid order gives its buyer, in the payment's own transaction (machine.ts
 * applyNotice), and what a full refund takes back.
 *
 * When nothing can be given (the course was deleted, the plan disabled or its authorised count
 * used up), the payment still stands, as the provider has taken the money: the grant is recorded
 * as failed with the reason, the console shows the order as due a refund, and the buyer's page
 * says the institution will refund them. Staff refund it with the ordinary refund action.
 */

export type GrantRecord = typeof orderGrant.$inferSelect;
// Not machine.ts's OrderRecord: machine.ts calls this file, which imports nothing back.
type OrderRecord = typeof shopOrder.$inferSelect;

const messageOf = (err: AppError): Message => err.msg ?? { zh: err.text('zh-CN'), en: err.text('en-US') };

/**
 * Gives what the order recorded, when it was placed, that it grants (nothing for 'none'); the goods
 * are not read, so staff changing them after the order was made changes nothing it gives. A second
 * call for one order adds nothing.
 */
export async function fulfilOrder(tx: DbOrTx, order: OrderRecord, now: Date): Promise<void> {
  if (order.grantkind === 'none' || !order.grantref) return;
  const kind = order.grantkind as 'course' | 'plan';
  const ref = order.grantref;
  const row = { orderid: order.orderid, musercode: order.musercode, kind, ref, at: now };
  let outcome: Pick<GrantRecord, 'status' | 'assesscode' | 'reason'>;
  if (kind === 'course') {
    const [found] = await coursesOfInstitution(tx, order.musercode, [ref]);
    outcome = found
      ? { status: 'granted', assesscode: null, reason: null }
      : { status: 'failed', assesscode: null, reason: { zh: '课程已被删除', en: 'The course has been deleted' } };
  } else {
    outcome = await givePlan(tx, order, ref, now);
  }
  await tx
    .insert(orderGrant)
    .values({ ...row, ...outcome })
    .onConflictDoNothing({ target: orderGrant.orderid });
}

/** One code of the plan, in a savepoint: a refusal rolls back only the attempt and is recorded as the reason. */
async function givePlan(
  tx: DbOrTx,
  order: OrderRecord,
  plancode: string,
  now: Date,
): Promise<Pick<GrantRecord, 'status' | 'assesscode' | 'reason'>> {
  try {
    const assesscode = await tx.transaction((sp) =>
      issueBoughtCode(
        sp,
        {
          musercode: order.musercode,
          realname: order.buyername,
          gender: order.buyergender === '02' ? '02' : '01',
          phone: buyerPhone(order.buyerphone),
          now,
        },
        plancode,
      ),
    );
    return { status: 'granted', assesscode, reason: null };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: 'failed', assesscode: null, reason: messageOf(err) };
  }
}

/**
 * A full refund takes back what the order gave: the course entitlement, and the assessment code
 * if nobody has opened it (its count goes back to the plan). A code already opened or answered is
 * left (the assessment happened); the reason says so.
 */
export async function revokeGrant(tx: DbOrTx, orderid: string, now: Date): Promise<void> {
  const [g] = await tx.select().from(orderGrant).where(eq(orderGrant.orderid, orderid)).for('update');
  if (!g || g.status !== 'granted') return;
  if (g.kind === 'plan' && g.assesscode && !(await withdrawIfUnopened(tx, g.assesscode))) {
    await tx
      .update(orderGrant)
      .set({ reason: { zh: '退款时测评已开始，测评码保留', en: 'The assessment had begun when refunded; the code was kept' }, at: now })
      .where(eq(orderGrant.orderid, orderid));
    return;
  }
  await tx.update(orderGrant).set({ status: 'revoked', at: now }).where(eq(orderGrant.orderid, orderid));
}

/** The grants of some orders, by order id. */
export async function grantsOf(db: DbOrTx, orderids: string[]): Promise<Map<string, GrantRecord>> {
  if (!orderids.length) return new Map();
  const rows = await db.select().from(orderGrant).where(inArray(orderGrant.orderid, orderids));
  return new Map(rows.map((r) => [r.orderid, r]));
}

/** Titles of the courses and names of the plans grants or goods name, by id. */
export async function grantNames(
  db: DbOrTx,
  refs: { musercode: string; kind: string; ref: string | null }[],
): Promise<Map<string, string>> {
  const byMuser = new Map<string, string[]>();
  for (const r of refs) if (r.kind === 'course' && r.ref) byMuser.set(r.musercode, [...(byMuser.get(r.musercode) ?? []), r.ref]);
  const [courses, plans] = await Promise.all([
    Promise.all([...byMuser].map(([m, ids]) => coursesOfInstitution(db, m, [...new Set(ids)]))),
    planNames(
      db,
      refs.filter((r) => r.kind === 'plan' && r.ref).map((r) => r.ref!),
    ),
  ]);
  return new Map([...courses.flat().map((c) => [c.courseid, c.title] as const), ...plans]);
}

export function grantOut(g: GrantRecord | undefined, names: Map<string, string>, lang: Lang): OrderRow['grant'] {
  if (!g) return null;
  return {
    kind: g.kind as 'course' | 'plan',
    status: g.status as 'granted' | 'failed' | 'revoked',
    ref: g.ref,
    name: names.get(g.ref) ?? '',
    assesscode: g.assesscode ?? '',
    reason: g.reason ? g.reason[lang === 'en-US' ? 'en' : 'zh'] : '',
    at: iso(g.at),
  };
}
