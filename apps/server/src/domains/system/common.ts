import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../http/context.js';
import type { DbOrTx } from '../../db/database.js';
import { accountCodes, ADMIN_ROLE_KEY, resolveGrants, roleGives, holds } from '../auth/index.js';
import { accountColumnsOf, accountNames, type AccountRow } from '../accounts/index.js';
import { outerColumn } from '../../kit/index.js';
import { role, roleMenu, sysuser } from './tables.js';

/**
 * The codes the caller may put on a role of this institution: those the institution holds and
 * the caller holds too. A role can never give more than either.
 */
export async function grantableCodes(ctx: Ctx, db: DbOrTx, account: AccountRow): Promise<Set<string>> {
  const own = await accountCodes(db, account);
  return new Set(own.filter((code) => holds(ctx.me, code)));
}

/**
 * What each role gives in effect, by the same function the resolver uses on every request
 * (auth/permissions.ts roleGives): what a caller may give and what a holder gets cannot differ.
 */
export async function roleEffectiveCodes(db: DbOrTx, roleids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (roleids.length === 0) return out;
  const rows = await db
    .select({
      roleid: role.roleid,
      rolekey: role.rolekey,
      ...accountColumnsOf(role.musercode),
      codes: sql<string[]>`array(select ${roleMenu.code} from ${roleMenu} where ${roleMenu.roleid} = ${outerColumn(role.roleid)})`,
    })
    .from(role)
    .where(inArray(role.roleid, roleids));
  const institutionCodes = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!institutionCodes.has(r.musercode)) institutionCodes.set(r.musercode, new Set(await accountCodes(db, r)));
    out.set(r.roleid, roleGives(institutionCodes.get(r.musercode)!, { rolekey: r.rolekey, codes: r.codes ?? [] }));
  }
  return out;
}

export { ADMIN_ROLE_KEY };

/**
 * Every caller but the super account may only act on users and roles that hold (give) no more than
 * it holds itself: a staff user, a provider over its institutions' staff, and a login-as session,
 * whose codes are already bounded by its actor's (issue 27 §2: a login-as session once reset the
 * password of a user holding codes its actor never had). For an institution's own sign-in the
 * bound always holds, since its staff hold only codes it holds.
 */
export function boundedByCaller(ctx: Ctx): boolean {
  return !ctx.me.roles.includes('admin');
}

/** The codes a staff user holds in effect (its roles bounded by its institution). */
export async function userCodes(db: DbOrTx, account: AccountRow, userid: string): Promise<string[]> {
  return (await resolveGrants(db, account, userid)).codes;
}

export const missingFrom = (ctx: Ctx, list: Iterable<string>) => [...list].filter((code) => !holds(ctx.me, code));

export const byInstitution = (column: AnyPgColumn, musercode: string, ...more: (SQL | undefined)[]) => and(eq(column, musercode), ...more);

/** How many staff users an institution has (an account with staff cannot be deleted). */
export async function staffCount(db: DbOrTx, musercode: string): Promise<number> {
  return Number(await db.$count(sysuser, eq(sysuser.musercode, musercode)));
}

/** Display names of staff users (real name, else sign-in name), for "who wrote this" columns of other domains. */
export async function staffNames(db: DbOrTx, userids: Iterable<string>): Promise<Map<string, string>> {
  const ids = [...new Set(userids)];
  if (!ids.length) return new Map();
  const rows = await db.select({ userid: sysuser.userid, realname: sysuser.realname, sysusername: sysuser.sysusername }).from(sysuser).where(inArray(sysuser.userid, ids));
  return new Map(rows.map((r) => [r.userid, r.realname || r.sysusername]));
}

/**
 * Names of who did something, from the ids rows keep (a staff user's id, else an account's code):
 * the staff user's name, else the account's, else the id itself. One query after the other, so a
 * caller inside a transaction may use it.
 */
export async function actorNames(db: DbOrTx, ids: Iterable<string | null>): Promise<(id: string | null) => string> {
  const known = [...ids].filter((x): x is string => !!x);
  const staff = await staffNames(db, known);
  const accounts = await accountNames(db, known);
  return (id) => (id ? (staff.get(id) ?? accounts.get(id) ?? id) : '');
}
