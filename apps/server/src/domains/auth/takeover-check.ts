import { SET_PASSWORD_CODE } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import { fail, notFound } from '../../http/errors.js';
import { accountRow } from '../accounts/index.js';
import { holds } from './scope.js';
import { assertHoldsAccount } from './takeover.js';

// Kept apart from takeover.ts, which accounts calls through auth's front door: this reads an
// account through accounts' front door, so auth/index.ts stays free of accounts (one way only).

/**
 * Setting another account's password, or resetting its second factor: its own code, and only over
 * an account holding no more than the caller.
 */
export async function checkTakeover(ctx: Ctx, musercode: string) {
  if (!holds(ctx.me, SET_PASSWORD_CODE)) {
    fail('permissionDenied', { zh: '设置其他账号的密码需要“设置他人密码”权限', en: 'Setting another account’s password needs the “set others’ passwords” permission' });
  }
  const target = await accountRow(ctx.db, musercode);
  if (!target) notFound();
  await assertHoldsAccount(ctx, ctx.db, target!);
}
