import { and, eq, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { invalid } from '../../http/errors.js';
import { iso } from '../../kit/index.js';
import { hashToken, newToken } from './sessions.js';
import { signInChallenge } from './tables.js';
import type { SignInPerson } from './login.js';

export type ChallengePurpose = 'code' | 'enrol';

/** Five minutes to type a code; fifteen to install an authenticator and enrol. */
const TTL_MS: Record<ChallengePurpose, number> = { code: 5 * 60_000, enrol: 15 * 60_000 };

const expired = () =>
  invalid({ zh: '登录已超时，请重新输入用户名和密码', en: 'The sign-in has timed out; enter your username and password again' });

/**
 * After a right password, when a second factor is to come: a random 256-bit challenge (only its
 * hash is kept) bound to the person whose password it was. It is not a token: no action but the
 * next sign-in step accepts it. Challenges a day past their expiry are cleared on the way.
 */
export async function issueChallenge(db: DbOrTx, now: Date, purpose: ChallengePurpose, who: SignInPerson) {
  await db.delete(signInChallenge).where(lt(signInChallenge.expiresat, new Date(now.getTime() - 86_400_000)));
  const challenge = newToken();
  const expiresat = new Date(now.getTime() + TTL_MS[purpose]);
  await db.insert(signInChallenge).values({ challengehash: hashToken(challenge), purpose, ...who, createdat: now, expiresat });
  return { secondfactor: purpose, challenge, expiresat: iso(expiresat) };
}

/** The person of a live challenge of this purpose; an unknown, used or expired one is refused. */
export async function openChallenge(db: DbOrTx, now: Date, challenge: string, purpose: ChallengePurpose): Promise<SignInPerson> {
  const [row] = await db
    .select()
    .from(signInChallenge)
    .where(eq(signInChallenge.challengehash, hashToken(challenge)));
  if (!row || row.purpose !== purpose || row.usedat || row.expiresat <= now) return expired();
  return { username: row.username, musercode: row.musercode, userid: row.userid };
}

/** Uses the challenge up; false when a parallel call used it first. */
export async function closeChallenge(db: DbOrTx, now: Date, challenge: string): Promise<boolean> {
  const used = await db
    .update(signInChallenge)
    .set({ usedat: now })
    .where(and(eq(signInChallenge.challengehash, hashToken(challenge)), isNull(signInChallenge.usedat)))
    .returning({ h: signInChallenge.challengehash });
  return used.length === 1;
}
