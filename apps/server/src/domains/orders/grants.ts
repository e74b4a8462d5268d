import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { goods, orderGrant, shopOrder } from './tables.js';

/**
 * What the orders domain tells others about purchases (DESIGN §4: through functions). It imports
 * no other domain, so the media domain can ask it which courses are sold and bought.
 *
 * A buyer on the respondent page has no account: the secret order token their page keeps (only its
 * SHA-256 is stored) is what shows an order, and so its course, to be theirs.
 */
export const hashOrderToken = (t: string) => createHash('sha256').update(t).digest('hex');

/**
 * The courses of an institution that are sold (`sold`: locked to whoever has not bought them) and
 * those of them paid for by the orders whose tokens are given (`bought`: a granted, not revoked,
 * course grant). A course is sold when any goods name it, whatever their listing (to be listed, on
 * sale or delisted: issue 27 item 11), or when any order was placed for it: once sold, it is never
 * handed out free because its goods were delisted or changed.
 */
export async function courseAccess(
  db: DbOrTx,
  musercode: string,
  ordertokens: string[],
): Promise<{ sold: Set<string>; bought: Set<string> }> {
  const [sold, bought] = await Promise.all([
    db
      .select({ courseid: goods.grantcourseid })
      .from(goods)
      .where(and(eq(goods.musercode, musercode), eq(goods.grantkind, 'course')))
      .union(
        db
          .select({ courseid: shopOrder.grantref })
          .from(shopOrder)
          .where(and(eq(shopOrder.musercode, musercode), eq(shopOrder.grantkind, 'course'))),
      ),
    ordertokens.length
      ? db
          .select({ courseid: orderGrant.ref })
          .from(orderGrant)
          .innerJoin(shopOrder, eq(shopOrder.orderid, orderGrant.orderid))
          .where(
            and(
              eq(orderGrant.musercode, musercode),
              eq(orderGrant.kind, 'course'),
              eq(orderGrant.status, 'granted'),
              inArray(shopOrder.tokenhash, [...new Set(ordertokens)].map(hashOrderToken)),
            ),
          )
      : [],
  ]);
  return { sold: new Set(sold.map((s) => s.courseid!)), bought: new Set(bought.map((b) => b.courseid)) };
}
