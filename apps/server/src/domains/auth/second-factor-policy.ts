import { and, eq, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { accountAncestors } from '../accounts/index.js';
import type { Person } from './second-factor.js';
import { secondFactorPolicy } from './tables.js';

/**
 * Whether a policy requires this person to sign in with a second factor: the super account's
 * (everyone), or that of an account above them: a staff user's own institution, an institution's
 * provider, a provider's owner. An account's own policy is for those below it, never itself.
 */
export async function secondFactorRequired(db: DbOrTx, p: Person): Promise<boolean> {
  const above = await accountAncestors(db, p.musercode);
  if (p.userid) above.push(p.musercode);
  const everyone = eq(secondFactorPolicy.everyone, true);
  const rows = await db
    .select({ musercode: secondFactorPolicy.musercode })
    .from(secondFactorPolicy)
    .where(
      and(eq(secondFactorPolicy.required, true), above.length ? or(everyone, inArray(secondFactorPolicy.musercode, above)) : everyone),
    );
  return rows.some((r) => r.musercode !== p.musercode || p.userid !== null);
}

/** The policy an account sets for those below it. */
export async function policyOf(db: DbOrTx, musercode: string): Promise<boolean> {
  const [row] = await db
    .select({ required: secondFactorPolicy.required })
    .from(secondFactorPolicy)
    .where(eq(secondFactorPolicy.musercode, musercode));
  return row?.required ?? false;
}

export async function setPolicy(db: DbOrTx, musercode: string, required: boolean, issuper: boolean, now: Date) {
  const values = { required, everyone: issuper, updatedat: now };
  await db
    .insert(secondFactorPolicy)
    .values({ musercode, ...values })
    .onConflictDoUpdate({ target: secondFactorPolicy.musercode, set: values });
}
