import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { registration } from './tables.js';

/**
 * An erasure (issue 30 §5): a person's consultation registrations lose the name and phone given
 * and the answers in words (choices stay); the state, dates and case link stay for the counts.
 */
export async function eraseRegistrationsOfPerson(tx: DbOrTx, cusercode: string): Promise<void> {
  await tx
    .update(registration)
    .set({
      realname: '',
      phone: null,
      answers: sql`(select coalesce(jsonb_agg(a.v order by a.i), '[]'::jsonb) from jsonb_array_elements(${registration.answers}) with ordinality as a(v, i) where jsonb_typeof(a.v -> 'value') <> 'string')`,
      ip: null,
    })
    .where(eq(registration.cusercode, cusercode));
}
