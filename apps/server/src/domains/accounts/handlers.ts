import { and, eq } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { fail } from '../../http/errors.js';
import { accountInScope } from './owner.js';
import { muserPermission } from './tables.js';
import { holds } from '../auth/index.js';
import { entryHandlers } from './entry.js';
import { exportHandlers } from './exports.js';
import { institutionHandlers } from './institutions.js';
import { linkEntryHandlers } from './link-entries.js';

export const accountHandlers = {
  ...institutionHandlers,
  ...entryHandlers,
  ...linkEntryHandlers,
  ...exportHandlers,

  'as.m.permissions.getAllPermissions': async ({ musercode }, ctx) => {
    const account = await accountInScope(ctx, ctx.db, musercode);
    const granted = await ctx.db.select({ code: muserPermission.code }).from(muserPermission).where(eq(muserPermission.musercode, account.musercode));
    return { granted: granted.map((g) => g.code).sort(), grantable: [...ctx.me.codes].sort() };
  },

  'as.m.permissions.updateUserPermissions': async ({ musercode, permissions }, ctx) => {
    const me = ctx.me;
    if (musercode === me.musercode) fail('permissionDenied', { zh: '不能修改自己账号的权限', en: 'You cannot change the permissions of your own account' });
    const account = await accountInScope(ctx, ctx.db, musercode);
    const beyond = permissions.filter((code) => !holds(me, code));
    if (beyond.length > 0) {
      fail('permissionDenied', { zh: `不能授予自己没有的权限：${beyond.join(', ')}`, en: `You cannot grant codes you do not hold: ${beyond.join(', ')}` });
    }
    const codes = [...new Set(permissions)];
    await ctx.db.transaction(async (tx) => {
      await tx.delete(muserPermission).where(and(eq(muserPermission.musercode, account.musercode)));
      if (codes.length) await tx.insert(muserPermission).values(codes.map((code) => ({ musercode: account.musercode, code })));
    });
    await ctx.audit({ result: 'ok', detail: { target: musercode, codes } });
    return null;
  },
} satisfies HandlerMap;

