import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import type { Caller } from '../../http/context.js';
import { muser } from '../accounts/tables.js';
import { sysuser } from '../system/tables.js';
import { session } from './tables.js';
import { resolveAccess } from './permissions.js';

/** 256 random bits; only the SHA-256 is stored. */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Writes of last-seen are skipped within this window, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 30_000;

export async function createSession(
  db: DbOrTx,
  now: Date,
  who: { musercode: string; userid: string | null; actor: string | null; actoruserid?: string | null; ip: string },
): Promise<string> {
  const token = newToken();
  await db.insert(session).values({ tokenhash: hashToken(token), ...who, createdat: now, lastseenat: now });
  return token;
}

const identityInvalid = () => new AppError('identityInvalid');

const actorAccount = alias(muser, 'actor_muser');
const actorUser = alias(sysuser, 'actor_sysuser');

/**
 * Turns a token into the caller, or answers 110000 when the token is missing, unknown,
 * revoked, idle too long, past its absolute lifetime, or its account is disabled. A login-as
 * session also ends with its actor: the provider account disabled or gone, or the provider's
 * staff user who opened it disabled, deleted or moved; and it holds no code its actor does not.
 */
export async function authenticate(db: Db, config: Config, now: Date, token: string | undefined): Promise<Caller> {
  if (!token || token.length > 128) throw identityInvalid();
  const tokenhash = hashToken(token);
  const [row] = await db
    .select({
      s: session,
      account: { musercode: muser.musercode, musertype: muser.musertype, issuper: muser.issuper, enabled: muser.enabled },
      userEnabled: sysuser.enabled,
      actor: { musercode: actorAccount.musercode, musertype: actorAccount.musertype, issuper: actorAccount.issuper, enabled: actorAccount.enabled },
      actorUser: { musercode: actorUser.musercode, enabled: actorUser.enabled },
    })
    .from(session)
    .innerJoin(muser, eq(muser.musercode, session.musercode))
    .leftJoin(sysuser, eq(sysuser.userid, session.userid))
    .leftJoin(actorAccount, eq(actorAccount.musercode, session.actor))
    .leftJoin(actorUser, eq(actorUser.userid, session.actoruserid))
    .where(eq(session.tokenhash, tokenhash));
  if (!row || row.s.revokedat) throw identityInvalid();
  const idleMs = config.sessionIdleMinutes * 60_000;
  const absoluteMs = config.sessionAbsoluteHours * 3_600_000;
  if (now.getTime() - row.s.lastseenat.getTime() > idleMs || now.getTime() - row.s.createdat.getTime() > absoluteMs) throw identityInvalid();
  if (row.account.enabled !== 1 || (row.s.userid && row.userEnabled !== 1)) throw identityInvalid();
  if (row.s.actor && row.actor?.enabled !== 1) throw identityInvalid();
  if (row.s.actoruserid && (row.actorUser?.enabled !== 1 || row.actorUser.musercode !== row.s.actor)) throw identityInvalid();

  if (now.getTime() - row.s.lastseenat.getTime() > TOUCH_EVERY_MS) {
    await db.update(session).set({ lastseenat: now }).where(eq(session.tokenhash, tokenhash));
  }
  const actor = row.s.actor && row.actor ? { account: row.actor as { musercode: string; musertype: string; issuper: boolean }, userid: row.s.actoruserid } : null;
  const access = await resolveAccess(db, row.account, row.s.userid, actor);
  return {
    tokenhash,
    musercode: row.account.musercode,
    userid: row.s.userid,
    actor: row.s.actor,
    actoruserid: row.s.actoruserid,
    musertype: row.account.musertype,
    issuper: row.account.issuper,
    codes: new Set(access.codes),
    roles: access.roles,
    scope: access.scope,
  };
}

export async function revokeToken(db: DbOrTx, now: Date, tokenhash: string) {
  await db.update(session).set({ revokedat: now }).where(and(eq(session.tokenhash, tokenhash), isNull(session.revokedat)));
}

/** Ends every session of an institution account: its own, and those acted as it by a provider. */
export async function revokeAccountSessions(db: DbOrTx, now: Date, musercode: string) {
  await db
    .update(session)
    .set({ revokedat: now })
    .where(and(isNull(session.revokedat), or(and(eq(session.musercode, musercode), isNull(session.userid)), eq(session.actor, musercode))));
}

/** Ends every session of a staff user: its own, and those it opened by login-as. */
export async function revokeUserSessions(db: DbOrTx, now: Date, userid: string) {
  await db
    .update(session)
    .set({ revokedat: now })
    .where(and(isNull(session.revokedat), or(eq(session.userid, userid), eq(session.actoruserid, userid))));
}
