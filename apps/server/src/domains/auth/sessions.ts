import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, or } from 'drizzle-orm';
import type { Config } from '../../config.js';
import { preparedQuery, type Db, type DbOrTx } from '../../db/database.js';
import { AppError } from '../../http/errors.js';
import type { Caller } from '../../http/context.js';
import { session } from './tables.js';
import type { CallerCache } from './caller-cache.js';
import { accessColumnsOfSession, accessOf, type AccessRows } from './permissions.js';

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

/**
 * Everything a request's authentication and authorisation read, in one statement: the session, its
 * account, its staff user, its login-as actor (account and staff user) and the access rows of
 * permissions.ts. Sent as a named prepared statement (preparedQuery), so PostgreSQL parses and plans
 * it once per connection and no query is built per request.
 */
const AUTH_STATEMENT = `
  select s.musercode, s.userid, s.actor, s.actoruserid,
    s.revokedat is not null as revoked,
    (extract(epoch from s.createdat) * 1000)::float8 as createdms,
    (extract(epoch from s.lastseenat) * 1000)::float8 as lastseenms,
    m.musertype, m.issuper, m.enabled as accountenabled,
    u.enabled as userenabled,
    am.musertype as actormusertype, am.issuper as actorissuper, am.enabled as actorenabled,
    au.musercode as actorusermusercode, au.enabled as actoruserenabled,
    ${accessColumnsOfSession}
  from session s
  join muser m on m.musercode = s.musercode
  left join sysuser u on u.userid = s.userid
  left join muser am on am.musercode = s.actor
  left join sysuser au on au.userid = s.actoruserid
  where s.tokenhash = $1`;

interface AuthRow extends AccessRows {
  musercode: string;
  userid: string | null;
  actor: string | null;
  actoruserid: string | null;
  revoked: boolean;
  createdms: number;
  lastseenms: number;
  musertype: string;
  issuper: boolean;
  accountenabled: number;
  userenabled: number | null;
  actormusertype: string | null;
  actorissuper: boolean | null;
  actorenabled: number | null;
  actorusermusercode: string | null;
  actoruserenabled: number | null;
}

/**
 * Turns a token into the caller, or answers 110000 when the token is missing, unknown,
 * revoked, idle too long, past its absolute lifetime, or its account is disabled. A login-as
 * session also ends with its actor: the provider account disabled or gone, or the provider's
 * staff user who opened it disabled, deleted or moved; and it holds no code its actor does not.
 * One round trip (AUTH_STATEMENT), plus a write of last-seen at most every TOUCH_EVERY_MS.
 */
export async function authenticate(db: Db, config: Config, now: Date, token: string | undefined, cache?: CallerCache): Promise<Caller> {
  if (!token || token.length > 128) throw identityInvalid();
  const tokenhash = hashToken(token);
  const idleMs = config.sessionIdleMinutes * 60_000;
  const absoluteMs = config.sessionAbsoluteHours * 3_600_000;
  const t = now.getTime();
  const hit = await cache?.get(tokenhash, t);
  if (hit) {
    // The same expiry rules on the cached times; last-seen is written as often as without the cache.
    if (t - hit.lastseenms > idleMs || t - hit.createdms > absoluteMs) throw identityInvalid();
    if (t - hit.lastseenms > TOUCH_EVERY_MS) {
      hit.lastseenms = t;
      await db.update(session).set({ lastseenat: now }).where(eq(session.tokenhash, tokenhash));
    }
    return hit.caller;
  }
  const generation = cache?.generation() ?? 0;
  const [row] = await preparedQuery<AuthRow>(db, 'xinli_authenticate', AUTH_STATEMENT, [tokenhash]);
  if (!row || row.revoked) throw identityInvalid();
  if (t - row.lastseenms > idleMs || t - row.createdms > absoluteMs) throw identityInvalid();
  if (row.accountenabled !== 1 || (row.userid && row.userenabled !== 1)) throw identityInvalid();
  if (row.actor && row.actorenabled !== 1) throw identityInvalid();
  if (row.actoruserid && (row.actoruserenabled !== 1 || row.actorusermusercode !== row.actor)) throw identityInvalid();

  if (t - row.lastseenms > TOUCH_EVERY_MS) {
    await db.update(session).set({ lastseenat: now }).where(eq(session.tokenhash, tokenhash));
  }
  const account = { musercode: row.musercode, musertype: row.musertype, issuper: row.issuper };
  const actor = row.actor && row.actormusertype !== null ? { account: { musercode: row.actor, musertype: row.actormusertype, issuper: !!row.actorissuper }, userid: row.actoruserid } : null;
  const access = accessOf(account, row.userid, actor, row);
  const caller: Caller = {
    tokenhash,
    musercode: row.musercode,
    userid: row.userid,
    actor: row.actor,
    actoruserid: row.actoruserid,
    musertype: row.musertype,
    issuper: row.issuper,
    codes: new Set(access.codes),
    roles: access.roles,
    scope: access.scope,
  };
  cache?.set(tokenhash, { caller, createdms: row.createdms, lastseenms: Math.max(row.lastseenms, t - row.lastseenms > TOUCH_EVERY_MS ? t : 0), loadedms: t }, generation);
  return caller;
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
