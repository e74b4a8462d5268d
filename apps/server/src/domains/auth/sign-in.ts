import type { HandlerMap } from '../../http/handlers.js';
import type { Ctx } from '../../http/context.js';
import { fail, invalid } from '../../http/errors.js';
import { accountRecord, type AccountRecord } from '../accounts/index.js';
import { staffUserRecord, type StaffUserRecord } from '../system/index.js';
import { checkCode, checkSignIn, settleAttempt, type SignInPerson } from './login.js';
import { acceptCode, beginEnrolment, isEnrolled, newRecoveryCodes, recoveryCodesLeft, useRecoveryCode } from './second-factor.js';
import { secondFactorRequired } from './second-factor-policy.js';
import { closeChallenge, issueChallenge, openChallenge } from './sign-in-challenge.js';
import { createSession } from './sessions.js';
import { buildUserRecord } from './user-record.js';

/** A new session and the user record of SPEC §3; secondfactor says the sign-in passed one. */
async function startSession(ctx: Ctx, account: AccountRecord, user: StaffUserRecord | null, username: string, secondfactor: boolean) {
  const who = { musercode: account.musercode, userid: user?.userid ?? null };
  const token = await createSession(ctx.db, ctx.now(), { ...who, actor: null, ip: ctx.ip, secondfactor });
  await ctx.audit({ ...who, action: 'as.m.user.login', result: 'ok', detail: { username, secondfactor } });
  return buildUserRecord(ctx.db, token, account, user, null);
}

/** The account and staff user of a challenge, read again: either may have been disabled since the password step. */
async function recordsOf(ctx: Ctx, who: SignInPerson) {
  const account = await accountRecord(ctx.db, who.musercode);
  const user = who.userid ? await staffUserRecord(ctx.db, who.userid) : null;
  if (!account || account.enabled !== 1 || (who.userid && (!user || user.enabled !== 1 || user.musercode !== who.musercode))) {
    fail('permissionDenied', { zh: '该账号已停用，请联系管理员', en: 'This account is disabled; please contact the administrator' });
  }
  return { account: account!, user: user ?? null };
}

/** The challenge was used by a parallel call between reading and closing it. */
async function close(ctx: Ctx, challenge: string) {
  if (!(await closeChallenge(ctx.db, ctx.now(), challenge))) {
    invalid({ zh: '登录已超时，请重新输入用户名和密码', en: 'The sign-in has timed out; enter your username and password again' });
  }
}

/**
 * Sign-in (SPEC §7), in one step for a person without a second factor and two with one (issue 30
 * §1): the password answers a challenge, the code completes it. A policy that requires a second
 * factor not yet set up answers an enrol challenge, good only for enrolling and then signing in.
 */
export const signInHandlers = {
  'as.m.user.login': async ({ username, pwd }, ctx) => {
    const target = await checkSignIn(ctx, username, pwd);
    const who = { username, musercode: target.account.musercode, userid: target.user?.userid ?? null };
    const next = (await isEnrolled(ctx.db, who)) ? 'code' : (await secondFactorRequired(ctx.db, who)) ? 'enrol' : null;
    if (next) {
      await settleAttempt(ctx, target.attempt, 'partial');
      await ctx.audit({ musercode: who.musercode, userid: who.userid, result: 'ok', detail: { username, step: 'password', next } });
      return issueChallenge(ctx.db, ctx.now(), next, who);
    }
    await settleAttempt(ctx, target.attempt, 'ok');
    return startSession(ctx, target.account, target.user, username, false);
  },

  'as.m.user.loginSecondFactor': async ({ challenge, code, recoverycode }, ctx) => {
    if (!code === !recoverycode) {
      invalid({ zh: '请输入验证器上的6位验证码，或一个恢复码', en: 'Enter the 6-digit code of your authenticator, or one recovery code' });
    }
    const now = ctx.now();
    const who = await openChallenge(ctx.db, now, challenge, 'code');
    const attempt = await checkCode(ctx, who, () =>
      code ? acceptCode(ctx.db, who, code, now) : useRecoveryCode(ctx.db, who, recoverycode!, now),
    );
    await close(ctx, challenge);
    await settleAttempt(ctx, attempt, 'ok');
    if (recoverycode) {
      await ctx.audit({
        musercode: who.musercode,
        userid: who.userid,
        result: 'ok',
        detail: { username: who.username, recoverycodesleft: await recoveryCodesLeft(ctx.db, who) },
      });
    }
    const { account, user } = await recordsOf(ctx, who);
    return startSession(ctx, account, user, who.username, true);
  },

  'as.m.user.enrolSecondFactor': async ({ challenge }, ctx) => {
    const who = await openChallenge(ctx.db, ctx.now(), challenge, 'enrol');
    return beginEnrolment(ctx.db, who, who.username, ctx.now());
  },

  'as.m.user.confirmSecondFactor': async ({ challenge, code }, ctx) => {
    const now = ctx.now();
    const who = await openChallenge(ctx.db, now, challenge, 'enrol');
    const attempt = await checkCode(ctx, who, () => acceptCode(ctx.db, who, code, now, true));
    await close(ctx, challenge);
    await settleAttempt(ctx, attempt, 'ok');
    const recoverycodes = await newRecoveryCodes(ctx.db, who);
    await ctx.audit({ musercode: who.musercode, userid: who.userid, result: 'ok', detail: { username: who.username, enrolled: true } });
    const { account, user } = await recordsOf(ctx, who);
    return { user: await startSession(ctx, account, user, who.username, true), recoverycodes };
  },
} satisfies HandlerMap;
