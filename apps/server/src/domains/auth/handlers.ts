import { eq } from 'drizzle-orm';
import type { HandlerMap } from '../../http/handlers.js';
import { fail, notFound } from '../../http/errors.js';
import { muser } from '../accounts/tables.js';
import { sysuser } from '../system/tables.js';
import { checkSignIn } from './login.js';
import { buildUserRecord } from './user-record.js';
import { createSession, revokeAccountSessions, revokeToken, revokeUserSessions } from './sessions.js';
import { hashPassword } from './passwords.js';
import { assertInScope, holds } from './scope.js';
import { iso } from '../../kit/index.js';

export const authHandlers = {
  'as.m.user.login': async ({ username, pwd }, ctx) => {
    const { account, user } = await checkSignIn(ctx, username, pwd);
    const token = await createSession(ctx.db, ctx.now(), { musercode: account.musercode, userid: user?.userid ?? null, actor: null, ip: ctx.ip });
    await ctx.audit({ musercode: account.musercode, userid: user?.userid ?? null, action: 'as.m.user.login', result: 'ok', detail: { username } });
    return buildUserRecord(ctx.db, token, account, user, null);
  },

  'as.m.user.logout': async (_input, ctx) => {
    await revokeToken(ctx.db, ctx.now(), ctx.me.tokenhash);
    await ctx.audit({ action: 'as.m.user.logout', result: 'ok' });
    return null;
  },

  'as.m.user.loginAs': async ({ musercode }, ctx) => {
    const me = ctx.me;
    if (musercode === me.musercode) fail('validation', { zh: '不能以自己的身份代登录', en: 'You cannot act as your own account' });
    assertInScope(me, musercode);
    const [account] = await ctx.db.select().from(muser).where(eq(muser.musercode, musercode));
    if (!account || account.enabled !== 1) notFound();
    const actor = me.actor ?? me.musercode;
    const token = await createSession(ctx.db, ctx.now(), { musercode, userid: null, actor, ip: ctx.ip });
    await ctx.audit({ action: 'as.m.user.loginAs', result: 'ok', detail: { target: musercode } });
    return buildUserRecord(ctx.db, token, account!, null, musercode);
  },

  'as.m.user.updateMUser': async ({ musercode, pwd, ...profile }, ctx) => {
    const me = ctx.me;
    const self = musercode === me.musercode && !me.actor;
    if (!self && !holds(me, '00021', '00022')) fail('permissionDenied');
    assertInScope(me, musercode);
    const now = ctx.now();
    await ctx.db.transaction(async (tx) => {
      if (Object.keys(profile).length > 0) {
        await tx.update(muser).set({ ...profile, updatedat: now }).where(eq(muser.musercode, musercode));
      }
      if (!pwd) return;
      const pwdhash = await hashPassword(pwd);
      if (self && me.userid) {
        await tx.update(sysuser).set({ pwdhash }).where(eq(sysuser.userid, me.userid));
        await revokeUserSessions(tx, now, me.userid);
      } else {
        const changed = await tx.update(muser).set({ pwdhash, updatedat: now }).where(eq(muser.musercode, musercode)).returning({ m: muser.musercode });
        if (changed.length === 0) notFound();
        await revokeAccountSessions(tx, now, musercode);
      }
    });
    await ctx.audit({ action: pwd ? 'password-change' : 'as.m.user.updateMUser', result: 'ok', detail: { target: musercode, self } });
    return null;
  },

  'as.m.system.ping': async (_input, ctx) => ({ time: iso(ctx.now()) }),
} satisfies HandlerMap;
