import type { Caller, Ctx } from '../../http/context.js';
import type { DbOrTx } from '../../db/database.js';
import { denied } from '../../http/errors.js';
import { accountCodes, resolveGrants, type AccountRow } from './permissions.js';
import { holds } from './scope.js';

/**
 * Issue 27 §2: no action lets a caller obtain a code it does not hold, directly or by taking over
 * an account. Setting the password of, enabling or disabling, deleting, or changing the roles of an
 * account or staff user is allowed only when the caller holds every code the target holds. The
 * caller's codes are those of this request: a login-as session's are already bounded by its actor
 * (permissions.ts boundByActor), so the bound follows the actor whoever signed in.
 */
export const codesBeyond = (caller: Caller, codes: Iterable<string>) => [...codes].filter((code) => !holds(caller, code));

const beyondMessage = {
  zh: '该账号拥有您没有的权限，不能修改其密码、状态或角色',
  en: 'This account holds permissions you do not; you cannot change its password, state or roles',
};

/** Refuses unless the caller holds every code the account holds by itself (its own sign-in). */
export async function assertHoldsAccount(ctx: Ctx, db: DbOrTx, account: AccountRow): Promise<void> {
  if (codesBeyond(ctx.me, await accountCodes(db, account)).length) denied(beyondMessage);
}

/** Refuses unless the caller holds every code the staff user holds in effect. */
export async function assertHoldsUser(ctx: Ctx, db: DbOrTx, account: AccountRow, userid: string): Promise<void> {
  if (codesBeyond(ctx.me, (await resolveGrants(db, account, userid)).codes).length) {
    denied({ zh: '该用户的权限超出您的权限范围，不能操作', en: 'This user holds more than you do; you cannot change it' });
  }
}
