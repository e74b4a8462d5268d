import { sql } from 'drizzle-orm';
import { allMenuCodes, ownerOnlyCodes, PROVIDER_EXTRA_CODE } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';

export interface AccountRow {
  musercode: string;
  musertype: string;
  issuper: boolean;
}

export interface Grants {
  codes: string[];
  /** The role list the console reads (SPEC §6): the codes, plus 'admin' for the super account. */
  roles: string[];
}

export interface Access extends Grants {
  /** Institutions whose data the account may see: itself and those it provides for; 'all' for super. */
  scope: string[] | 'all';
}

/** Extra codes by account type (SPEC §6): type 005 adds 0000901, 001 to 004 add none. */
export function typeCodes(musertype: string): string[] {
  return musertype === '005' ? [PROVIDER_EXTRA_CODE] : [];
}

/** The built-in administrator role key: a role with exactly this key gives every code of its institution. */
export const ADMIN_ROLE_KEY = 'admin';

/** One enabled role: its key and its codes, always as separate values (never joined into one string). */
export interface RoleGrant {
  rolekey: string;
  codes: string[];
}

/** Codes the key 'admin' does not give by itself (menus.ts ownerOnly: setting others' passwords). */
const OWNER_ONLY = ownerOnlyCodes();

/**
 * What one role gives in effect: for the built-in key 'admin' (exactly that key) every code of its
 * institution but the owner-only ones, else its own codes that the institution holds. This is the only place that turns
 * a role into codes: the resolver below (what a holder gets on every request) and the checks in
 * system/common.ts (what a caller may give) both call it, so they cannot disagree. No string a
 * caller chooses (name, key, remark) is ever parsed for codes.
 */
export function roleGives(institution: ReadonlySet<string>, r: RoleGrant): string[] {
  if (r.rolekey === ADMIN_ROLE_KEY) return [...institution].filter((code) => !OWNER_ONLY.has(code));
  return r.codes.filter((code) => institution.has(code));
}

export interface AccessRows {
  own: string[];
  /** The user's enabled roles with their codes. */
  roles: RoleGrant[];
  children: string[];
  /** For a login-as session: the actor account's own codes and the actor staff user's roles. */
  actorown: string[];
  actorroles: RoleGrant[];
}

/** A staff user's enabled roles as JSON objects {rolekey, codes}: key and codes stay apart. */
const rolesOfUser = (userid: string | null) => sql`coalesce((
  select json_agg(json_build_object('rolekey', r.rolekey, 'codes', array(select rm.code from role_menu rm where rm.roleid = r.roleid)))
  from sysuser_role ur
  join role r on r.roleid = ur.roleid and r.enabled = 1
  where ur.userid = ${userid}), '[]'::json)`;

/**
 * The same five values as loadAccessRows, as SQL columns over the row of a session `s` (auth/sessions.ts
 * reads them in its one statement per request). Keep the two in step: authz.test.ts and the
 * sweep check both paths give the same codes.
 */
export const accessColumnsOfSession = `
  array(select code from muser_permission where musercode = s.musercode) as own,
  ${rolesSql('s.userid')} as roles,
  array(select musercode from muser where parentcode = s.musercode) as children,
  array(select code from muser_permission where musercode = s.actor) as actorown,
  ${rolesSql('s.actoruserid')} as actorroles`;

function rolesSql(userid: string): string {
  return `coalesce((
    select json_agg(json_build_object('rolekey', r.rolekey, 'codes', array(select rm.code from role_menu rm where rm.roleid = r.roleid)))
    from sysuser_role ur
    join role r on r.roleid = ur.roleid and r.enabled = 1
    where ur.userid = ${userid}), '[]'::json)`;
}

/** Access from the rows the session statement read (the pure part of resolveAccess). */
export function accessOf(account: AccountRow, userid: string | null, actor: Actor | null, raw: AccessRows): Access {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as RoleGrant[];
  const rows = { ...raw, roles: json(raw.roles), actorroles: json(raw.actorroles) };
  const scope = account.issuper ? 'all' : [account.musercode, ...rows.children];
  const actorGrants = actor ? grantsOf(actor.account, actor.userid, { own: rows.actorown, roles: rows.actorroles }) : null;
  return { ...boundByActor(grantsOf(account, userid, rows), actorGrants), scope };
}

/**
 * The actor of a login-as session: the provider account (or super account) that opened it, and
 * the provider's staff user when one did. The session holds no code its actor does not.
 */
export interface Actor {
  account: AccountRow;
  userid: string | null;
}

/** One round trip for everything authorisation needs; it runs on every signed-in request. */
async function loadAccessRows(db: DbOrTx, musercode: string, userid: string | null, actor: Actor | null): Promise<AccessRows> {
  const actorcode = actor?.account.musercode ?? null;
  const result = await db.execute(sql`
    select
      array(select code from muser_permission where musercode = ${musercode}) as own,
      ${rolesOfUser(userid)} as roles,
      array(select musercode from muser where parentcode = ${musercode}) as children,
      array(select code from muser_permission where musercode = ${actorcode}) as actorown,
      ${rolesOfUser(actor?.userid ?? null)} as actorroles`);
  const row = (result as unknown as { rows: AccessRows[] }).rows[0];
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as RoleGrant[];
  return { ...row, roles: json(row.roles), actorroles: json(row.actorroles) };
}

/**
 * Pure: an account's own codes, and a staff user's codes as what its enabled roles give
 * (roleGives: bounded by its institution's codes; key 'admin' gives all of them).
 */
export function grantsOf(account: AccountRow, userid: string | null, rows: { own: string[]; roles: RoleGrant[] }): Grants {
  const own = account.issuper ? [...allMenuCodes(), PROVIDER_EXTRA_CODE] : [...new Set([...rows.own, ...typeCodes(account.musertype)])];
  if (!userid) return { codes: own, roles: account.issuper ? ['admin', ...own] : own };
  const held = new Set(own);
  const codes = [...new Set(rows.roles.flatMap((r) => roleGives(held, r)))];
  return { codes, roles: codes };
}

/** Pure: a login-as session holds the codes of the account it acts as that its actor holds too. */
export function boundByActor(grants: Grants, actor: Grants | null): Grants {
  if (!actor || actor.roles.includes('admin')) return grants;
  const held = new Set(actor.codes);
  const codes = grants.codes.filter((code) => held.has(code));
  return { codes, roles: codes };
}

export async function resolveAccess(db: DbOrTx, account: AccountRow, userid: string | null, actor: Actor | null = null): Promise<Access> {
  const rows = await loadAccessRows(db, account.musercode, userid, actor);
  const scope = account.issuper ? 'all' : [account.musercode, ...rows.children];
  const actorGrants = actor ? grantsOf(actor.account, actor.userid, { own: rows.actorown, roles: rows.actorroles }) : null;
  return { ...boundByActor(grantsOf(account, userid, rows), actorGrants), scope };
}

export async function resolveGrants(db: DbOrTx, account: AccountRow, userid: string | null, actor: Actor | null = null): Promise<Grants> {
  const { codes, roles } = await resolveAccess(db, account, userid, actor);
  return { codes, roles };
}

/** The codes an account holds by itself (no staff role applied). */
export async function accountCodes(db: DbOrTx, account: AccountRow): Promise<string[]> {
  return (await resolveGrants(db, account, null)).codes;
}
