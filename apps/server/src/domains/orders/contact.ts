/**
 * A buyer's phone number at rest: sealed in shop_order.buyerphone (kit/crypt), as every other phone
 * number, with its blind index in buyerphonehash for the order list's exact search. Written only by
 * placeOrder; read opened only by the list (masked) and the fulfilment that makes the buyer a person.
 */
import { blindIndex, normalisePhone as normalise, open, seal, type SealedField } from '../../kit/crypt/index.js';

/** The columns to write for a buyer's phone. */
export const buyerPhoneColumns = (phone: string) => ({ buyerphone: seal(phone), buyerphonehash: blindIndex(normalise(phone)) });

/** The blind index a search for this phone number looks up. */
export const buyerPhoneHash = (phone: string) => blindIndex(normalise(phone));

/** A buyer's phone number, opened. */
export const buyerPhone = (sealed: string) => open(sealed) ?? '';

/** The sealed columns of orders' tables (the start-up step and the rotation command). */
export const ordersSealedFields: SealedField[] = [
  { kind: 'text', table: 'shop_order', key: 'orderid', column: 'buyerphone', hash: 'buyerphonehash', normalise },
];
