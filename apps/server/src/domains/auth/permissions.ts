import { and, eq, or } from 'drizzle-orm';
import { allMenuCodes, PROVIDER_EXTRA_CODE } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { muser, muserPermission } from '../accounts/tables.js';
import { role, roleMenu, sysuserRole } from '../system/tables.js';

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

/** Extra codes by account type (SPEC §6): type 005 adds 0000901, 001 to 004 add none. */
export function typeCodes(musertype: string): string[] {
  return musertype === '005' ? [PROVIDER_EXTRA_CODE] : [];
}

/** The codes an account holds by itself. */
export async function accountCodes(db: DbOrTx, account: AccountRow): Promise<string[]> {
  if (account.issuper) return [...allMenuCodes(), PROVIDER_EXTRA_CODE];
  const rows = await db.select({ code: muserPermission.code }).from(muserPermission).where(eq(muserPermission.musercode, account.musercode));
  return [...new Set([...rows.map((r) => r.code), ...typeCodes(account.musertype)])];
}

/**
 * A staff user's codes are those of its enabled roles, bounded by its institution's codes:
 * a role can never give more than the institution holds. Role key 'admin' gives all of them.
 */
export async function resolveGrants(db: DbOrTx, account: AccountRow, userid: string | null): Promise<Grants> {
  const own = await accountCodes(db, account);
  if (!userid) return { codes: own, roles: account.issuper ? ['admin', ...own] : own };
  const rows = await db
    .select({ rolekey: role.rolekey, code: roleMenu.code })
    .from(sysuserRole)
    .innerJoin(role, and(eq(role.roleid, sysuserRole.roleid), eq(role.enabled, 1)))
    .leftJoin(roleMenu, eq(roleMenu.roleid, role.roleid))
    .where(eq(sysuserRole.userid, userid));
  const codes = rows.some((r) => r.rolekey === 'admin') ? own : intersect(rows.map((r) => r.code).filter((c): c is string => !!c), own);
  return { codes, roles: codes };
}

const intersect = (a: string[], b: string[]) => {
  const keep = new Set(b);
  return [...new Set(a.filter((x) => keep.has(x)))];
};

/** Institutions whose data an account may see: itself and the institutions it provides for. */
export async function resolveScope(db: DbOrTx, account: AccountRow): Promise<string[] | 'all'> {
  if (account.issuper) return 'all';
  const rows = await db
    .select({ musercode: muser.musercode })
    .from(muser)
    .where(or(eq(muser.musercode, account.musercode), eq(muser.parentcode, account.musercode)));
  return rows.map((r) => r.musercode);
}

