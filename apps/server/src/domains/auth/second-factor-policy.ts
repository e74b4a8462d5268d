import { and, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { accountAncestors } from '../accounts/index.js';
import type { Person } from './second-factor.js';
import { secondFactorPolicy, session } from './tables.js';

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

/**
 * Once a policy is on, the sessions it now covers that were signed in with a password only end
 * (the caller's own excepted): their people sign in again, with a code or by enrolling. A
 * login-as session ends with its opener. Answers how many sessions ended.
 */
export async function endPasswordOnlySessions(db: DbOrTx, now: Date, keep: string): Promise<number> {
  const open = await db
    .select({ tokenhash: session.tokenhash, musercode: session.musercode, userid: session.userid })
    .from(session)
    .where(and(isNull(session.revokedat), isNull(session.openedby), eq(session.secondfactor, false), ne(session.tokenhash, keep)));
  const covered = new Map<string, boolean>();
  const ended: string[] = [];
  for (const s of open) {
    const who = `${s.musercode}/${s.userid ?? ''}`;
    if (!covered.has(who)) covered.set(who, await secondFactorRequired(db, { musercode: s.musercode, userid: s.userid }));
    if (covered.get(who)) ended.push(s.tokenhash);
  }
  if (ended.length) await db.update(session).set({ revokedat: now }).where(inArray(session.tokenhash, ended));
  return ended.length;
}
