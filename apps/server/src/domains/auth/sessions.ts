import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
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
  who: { musercode: string; userid: string | null; actor: string | null; actoruserid?: string | null; openedby?: string | null; ip: string; secondfactor?: boolean },
): Promise<string> {
  const token = newToken();
  await db.insert(session).values({ tokenhash: hashToken(token), ...who, createdat: now, lastseenat: now });
  return token;
}

/** Whether a session was signed in with a second factor (a login-as session: inherited from its opener). */
export async function signedInWithSecondFactor(db: DbOrTx, tokenhash: string): Promise<boolean> {
  const [row] = await db.select({ secondfactor: session.secondfactor }).from(session).where(eq(session.tokenhash, tokenhash));
  return row?.secondfactor ?? false;
}

const identityInvalid = () => new AppError('identityInvalid');

/** Login-as of login-as (super account, provider, institution) is two deep; a longer chain is refused. */
const MAX_OPENER_DEPTH = 8;

/**
 * Everything a request's authentication and authorisation read, in one statement: the session, its
 * account, its staff user, its login-as actor (account and staff user), the sessions it was opened
 * from (a login-as session's opener, and the opener's opener: `opener*` columns, null for a session
 * signed in with a password) and the access rows of permissions.ts. Sent as a named prepared statement (preparedQuery), so PostgreSQL parses and plans
 * it once per connection and no query is built per request.
 */
const AUTH_STATEMENT = `
  select s.musercode, s.userid, s.actor, s.actoruserid, s.openedby,
    s.revokedat is not null as revoked,
    (extract(epoch from s.createdat) * 1000)::float8 as createdms,
    (extract(epoch from s.lastseenat) * 1000)::float8 as lastseenms,
    m.musertype, m.issuper, m.enabled as accountenabled,
    u.enabled as userenabled,
    am.musertype as actormusertype, am.issuper as actorissuper, am.enabled as actorenabled,
    au.musercode as actorusermusercode, au.enabled as actoruserenabled,
    o.openerok, o.openercreatedms, o.openerlastseenms, o.openerchain,
    ${accessColumnsOfSession}
  from session s
  join muser m on m.musercode = s.musercode
  left join sysuser u on u.userid = s.userid
  left join muser am on am.musercode = s.actor
  left join sysuser au on au.userid = s.actoruserid
  left join lateral (
    with recursive up as (
      select p.tokenhash, p.openedby, p.revokedat, p.createdat, p.lastseenat, 1 as depth from session p where p.tokenhash = s.openedby
      union all
      select p.tokenhash, p.openedby, p.revokedat, p.createdat, p.lastseenat, up.depth + 1
      from session p join up on p.tokenhash = up.openedby where up.depth < ${MAX_OPENER_DEPTH}
    )
    -- ok: none revoked, and the chain reaches a session signed in with a password (no link missing, not too deep)
    select bool_and(up.revokedat is null) and bool_or(up.openedby is null) as openerok,
      (extract(epoch from min(up.createdat)) * 1000)::float8 as openercreatedms,
      (extract(epoch from min(up.lastseenat)) * 1000)::float8 as openerlastseenms,
      array_agg(up.tokenhash) as openerchain
    from up
  ) o on s.openedby is not null
  where s.tokenhash = $1`;

interface AuthRow extends AccessRows {
  musercode: string;
  userid: string | null;
  actor: string | null;
  actoruserid: string | null;
  openedby: string | null;
  openerok: boolean | null;
  openercreatedms: number | null;
  openerlastseenms: number | null;
  openerchain: string[] | null;
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
 * It also ends with the session it was opened from (issue 27 §15): revoked (sign-out, password
 * change, disabling: the trigger of migration 0025 revokes it too), deleted, idle too long or past
 * its absolute lifetime. Work in a login-as session counts as activity of its openers: their
 * last-seen is written with its own, so a provider working in the institution's tab is not signed
 * out of it by its idle first tab, while a first session that expires still ends the second.
 * One round trip (AUTH_STATEMENT), plus a write of last-seen at most every TOUCH_EVERY_MS.
 */
export async function authenticate(db: Db, config: Config, now: Date, token: string | undefined, cache?: CallerCache): Promise<Caller> {
  if (!token || token.length > 128) throw identityInvalid();
  const tokenhash = hashToken(token);
  const idleMs = config.sessionIdleMinutes * 60_000;
  const absoluteMs = config.sessionAbsoluteHours * 3_600_000;
  const t = now.getTime();
  const expired = (lastseenms: number, createdms: number) => t - lastseenms > idleMs || t - createdms > absoluteMs;
  const hit = await cache?.get(tokenhash, t);
  // An opener that looks expired on the cached times is read again: another process may have seen it since.
  if (hit && !(hit.opener && expired(hit.opener.lastseenms, hit.opener.createdms))) {
    // The same expiry rules on the cached times; last-seen is written as often as without the cache.
    if (expired(hit.lastseenms, hit.createdms)) throw identityInvalid();
    if (t - hit.lastseenms > TOUCH_EVERY_MS) {
      hit.lastseenms = t;
      if (hit.opener) hit.opener.lastseenms = t;
      await touch(db, now, [tokenhash, ...(hit.opener?.chain ?? [])]);
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
  // A login-as session lives only inside the session that opened it (one without an opener predates migration 0025).
  if (row.actor && !row.openedby) throw identityInvalid();
  const opener = row.openedby ? { chain: row.openerchain ?? [], createdms: row.openercreatedms ?? 0, lastseenms: row.openerlastseenms ?? 0 } : undefined;
  if (opener && (row.openerok !== true || expired(opener.lastseenms, opener.createdms))) throw identityInvalid();

  if (t - row.lastseenms > TOUCH_EVERY_MS) {
    if (opener) opener.lastseenms = t;
    await touch(db, now, [tokenhash, ...(opener?.chain ?? [])]);
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
  cache?.set(tokenhash, { caller, createdms: row.createdms, lastseenms: Math.max(row.lastseenms, t - row.lastseenms > TOUCH_EVERY_MS ? t : 0), loadedms: t, opener }, generation);
  return caller;
}

/** Writes last-seen of a session and of the sessions it was opened from. */
async function touch(db: Db, now: Date, tokenhashes: string[]) {
  if (tokenhashes.length === 1) await db.update(session).set({ lastseenat: now }).where(eq(session.tokenhash, tokenhashes[0]!));
  else await db.update(session).set({ lastseenat: now }).where(inArray(session.tokenhash, tokenhashes));
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
