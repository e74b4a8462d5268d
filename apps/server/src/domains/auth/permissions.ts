import { sql } from 'drizzle-orm';
import { allMenuCodes, PROVIDER_EXTRA_CODE } from '@xinli/contract';
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

interface AccessRows {
  own: string[];
  /** 'rolekey:code' per role code of the user's enabled roles ('rolekey:' for a role without codes). */
  rolecodes: string[];
  children: string[];
}

/** One round trip for everything authorisation needs; it runs on every signed-in request. */
async function loadAccessRows(db: DbOrTx, musercode: string, userid: string | null): Promise<AccessRows> {
  const result = await db.execute(sql`
    select
      array(select code from muser_permission where musercode = ${musercode}) as own,
      array(
        select r.rolekey || ':' || coalesce(rm.code, '')
        from sysuser_role ur
        join role r on r.roleid = ur.roleid and r.enabled = 1
        left join role_menu rm on rm.roleid = r.roleid
        where ur.userid = ${userid}
      ) as rolecodes,
      array(select musercode from muser where parentcode = ${musercode}) as children`);
  return (result as unknown as { rows: AccessRows[] }).rows[0];
}

/**
 * Pure: an account's own codes, and a staff user's codes as those of its enabled roles bounded
 * by its institution's codes (a role never gives more than the institution holds; role key
 * 'admin' gives all of them).
 */
export function grantsOf(account: AccountRow, userid: string | null, rows: Pick<AccessRows, 'own' | 'rolecodes'>): Grants {
  const own = account.issuper ? [...allMenuCodes(), PROVIDER_EXTRA_CODE] : [...new Set([...rows.own, ...typeCodes(account.musertype)])];
  if (!userid) return { codes: own, roles: account.issuper ? ['admin', ...own] : own };
  const pairs = rows.rolecodes.map((rc) => rc.split(':') as [string, string]);
  const held = new Set(own);
  const codes = pairs.some(([key]) => key === 'admin') ? own : [...new Set(pairs.map(([, code]) => code).filter((c) => held.has(c)))];
  return { codes, roles: codes };
}

export async function resolveAccess(db: DbOrTx, account: AccountRow, userid: string | null): Promise<Access> {
  const rows = await loadAccessRows(db, account.musercode, userid);
  const scope = account.issuper ? 'all' : [account.musercode, ...rows.children];
  return { ...grantsOf(account, userid, rows), scope };
}

export async function resolveGrants(db: DbOrTx, account: AccountRow, userid: string | null): Promise<Grants> {
  const { codes, roles } = await resolveAccess(db, account, userid);
  return { codes, roles };
}

/** The codes an account holds by itself (no staff role applied). */
export async function accountCodes(db: DbOrTx, account: AccountRow): Promise<string[]> {
  return (await resolveGrants(db, account, null)).codes;
}
