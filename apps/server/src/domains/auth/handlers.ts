import type { HandlerMap } from '../../http/handlers.js';
import type { Ctx } from '../../http/context.js';
import { fail, notFound } from '../../http/errors.js';
import { accountRecord, accountRow, changeAccount, checkRegion } from '../accounts/index.js';
import { changeStaffUser, staffUserRecord } from '../system/index.js';
import { signInHandlers } from './sign-in.js';
import { secondFactorHandlers } from './second-factor-actions.js';
import { isEnrolled } from './second-factor.js';
import { secondFactorRequired } from './second-factor-policy.js';
import { buildUserRecord } from './user-record.js';
import { createSession, revokeAccountSessions, revokeToken, revokeUserSessions, signedInWithSecondFactor } from './sessions.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { assertInScope, holds } from './scope.js';
import { iso } from '../../kit/index.js';
import { checkTakeover } from './takeover-check.js';

/**
 * The region part of updateMUser: all three codes or none, only by a caller with institution
 * management (00021/00022), checked against GB/T 2260 (accounts/regions.ts).
 */
function regionChange(manages: boolean, r: { provincecode?: string; citycode?: string; districtcode?: string }) {
  const given = [r.provincecode, r.citycode, r.districtcode].filter((v) => v !== undefined).length;
  if (given === 0) return {};
  if (!manages) fail('permissionDenied', { zh: '修改地区需要机构管理权限', en: 'Changing the region needs institution management' });
  if (given !== 3) fail('validation', { zh: '省、市、区县须一起提交', en: 'Send the province, city and district together' });
  const path = { provincecode: r.provincecode!, citycode: r.citycode!, districtcode: r.districtcode! };
  return { ...path, regionname: checkRegion(path) };
}

/**
 * Login-as (issue 30 §1): where a policy requires the actor to use a second factor (or the actor has
 * one), the session it is opened from must have been signed in with it. Answers whether it was, for
 * the new session to inherit.
 */
async function checkActorSecondFactor(ctx: Ctx, actor: { musercode: string; userid: string | null }): Promise<boolean> {
  const passed = await signedInWithSecondFactor(ctx.db, ctx.me.tokenhash);
  if (!passed && ((await secondFactorRequired(ctx.db, actor)) || (await isEnrolled(ctx.db, actor)))) {
    fail('permissionDenied', {
      zh: '代登录须先以双重验证登录：请退出后用密码和验证码重新登录',
      en: 'Acting as an institution needs a sign-in with your second factor: sign out, then sign in with your password and a code',
    });
  }
  return passed;
}

/**
 * Changing one's own password needs the current one: whoever finds a signed-in console cannot
 * take the account over, and the dialog can check what the user typed before signing them out.
 */
async function checkCurrentPassword(ctx: Ctx, staff: boolean, oldpwd: string | undefined) {
  const me = ctx.me;
  const row = staff ? await staffUserRecord(ctx.db, me.userid!) : await accountRecord(ctx.db, me.musercode);
  if (!oldpwd || !(await verifyPassword(row?.pwdhash, oldpwd))) {
    await ctx.audit({ action: 'password-change', result: 'fail', detail: { target: me.musercode, reason: 'current password' } });
    fail('validation', { zh: '当前密码不正确，密码未修改', en: 'The current password is not correct; the password was not changed' });
  }
}

export const authHandlers = {
  ...signInHandlers,
  ...secondFactorHandlers,
  'as.m.user.logout': async (_input, ctx) => {
    await revokeToken(ctx.db, ctx.now(), ctx.me.tokenhash);
    await ctx.audit({ result: 'ok' });
    return null;
  },

  'as.m.user.loginAs': async ({ musercode }, ctx) => {
    const me = ctx.me;
    if (musercode === me.musercode) fail('validation', { zh: '不能以自己的身份代登录', en: 'You cannot act as your own account' });
    assertInScope(me, musercode);
    const account = await accountRecord(ctx.db, musercode);
    if (!account || account.enabled !== 1) notFound();
    // The session is tied to whoever opened it (the provider, or the provider's staff user; the
    // first actor of a chain): it ends with them and holds no code they do not (auth/sessions.ts).
    const actor = me.actor ?? me.musercode;
    const actoruserid = me.actor ? me.actoruserid : me.userid;
    const actorAccount = await accountRow(ctx.db, actor);
    const secondfactor = await checkActorSecondFactor(ctx, { musercode: actor, userid: actoruserid });
    // ...and it ends with the session it is opened from (issue 27 §15: sign-out, expiry, revocation).
    const token = await createSession(ctx.db, ctx.now(), { musercode, userid: null, actor, actoruserid, openedby: me.tokenhash, ip: ctx.ip, secondfactor });
    await ctx.audit({ result: 'ok', detail: { target: musercode } });
    return buildUserRecord(ctx.db, token, account!, null, musercode, { account: actorAccount!, userid: actoruserid });
  },

  /**
   * Three callers, three things changed:
   * - the institution account itself (no actor): its own profile and password;
   * - a staff user naming its own institution: its OWN user (name, phone, password); the
   *   institution's name and website need code 00021 or 00022, and never come from a staff user's
   *   name or phone (a counsellor once renamed its school and changed its phone);
   * - anyone else (a provider, a login-as session): needs 00021 or 00022 and the account in scope;
   *   its password also needs SET_PASSWORD_CODE, and the caller must hold every code the account
   *   holds, or setting it would hand the caller those codes (issue 27 §2).
   */
  'as.m.user.updateMUser': async ({ musercode, pwd, oldpwd, insname, website, provincecode, citycode, districtcode, ...personal }, ctx) => {
    const me = ctx.me;
    const own = musercode === me.musercode && !me.actor;
    const staff = own && me.userid !== null;
    const manages = holds(me, '00021', '00022');
    if (!own && !manages) fail('permissionDenied');
    const region = regionChange(manages, { provincecode, citycode, districtcode });
    if (staff && (insname !== undefined || website !== undefined) && !manages) {
      fail('permissionDenied', {
        zh: '机构资料只能由机构账号或有机构管理权限的用户修改',
        en: 'The institution’s profile can be changed only by the institution account or a user with institution management',
      });
    }
    assertInScope(me, musercode);
    if (pwd && !own) await checkTakeover(ctx, musercode);
    if (pwd && own) await checkCurrentPassword(ctx, staff, oldpwd);
    const now = ctx.now();
    const accountFields = {
      ...(staff ? {} : personal),
      ...(insname === undefined ? {} : { insname }),
      ...(website === undefined ? {} : { website }),
      ...region,
    };
    const userFields = staff ? personal : {};
    await ctx.db.transaction(async (tx) => {
      if (Object.keys(accountFields).length > 0) {
        if (!(await changeAccount(tx, musercode, { ...accountFields, updatedat: now }))) notFound();
      }
      if (staff && Object.keys(userFields).length > 0) {
        await changeStaffUser(tx, me.userid!, { ...userFields, updatedat: now });
      }
      if (!pwd) return;
      const pwdhash = await hashPassword(pwd);
      if (staff) {
        await changeStaffUser(tx, me.userid!, { pwdhash });
        await revokeUserSessions(tx, now, me.userid!);
      } else {
        if (!(await changeAccount(tx, musercode, { pwdhash, updatedat: now }))) notFound();
        await revokeAccountSessions(tx, now, musercode);
      }
    });
    await ctx.audit({ action: pwd ? 'password-change' : 'as.m.user.updateMUser', result: 'ok', detail: { target: musercode, self: own, staff } });
    return null;
  },

  'as.m.system.ping': async (_input, ctx) => ({ time: iso(ctx.now()) }),
} satisfies HandlerMap;
