import type { HandlerMap } from '../../http/handlers.js';
import type { Ctx } from '../../http/context.js';
import { denied, invalid } from '../../http/errors.js';
import { accountRecord, accountInScope } from '../accounts/index.js';
import { staffUserRecord } from '../system/index.js';
import {
  acceptCode,
  beginEnrolment,
  isEnrolled,
  newRecoveryCodes,
  recoveryCodesLeft,
  removeSecondFactor,
  type Person,
} from './second-factor.js';
import { endPasswordOnlySessions, policyOf, secondFactorRequired, setPolicy } from './second-factor-policy.js';
import { checkTakeover } from './takeover-check.js';

/**
 * The caller's own second factor. A login-as session acts for an institution but is not its
 * holder, so it may not enrol, turn off or see the institution's.
 */
function myself(ctx: Ctx): Person {
  if (ctx.me.actor) {
    denied({
      zh: '代登录时不能管理该账号的双重验证，请以本人身份登录',
      en: 'While acting as another account you cannot manage its second factor; sign in as yourself',
    });
  }
  return { musercode: ctx.me.musercode, userid: ctx.me.userid };
}

/** The name the authenticator app lists: the person's sign-in name. */
async function labelOf(ctx: Ctx, p: Person): Promise<string> {
  if (p.userid) return (await staffUserRecord(ctx.db, p.userid))?.sysusername ?? p.userid;
  return (await accountRecord(ctx.db, p.musercode))?.username ?? p.musercode;
}

/** A code of the caller's own authenticator, for changes that weaken or renew the factor. */
async function requireCode(ctx: Ctx, p: Person, code: string, pending = false) {
  if (!(await acceptCode(ctx.db, p, code, ctx.now(), pending))) {
    await ctx.audit({ result: 'fail', detail: { reason: 'code' } });
    invalid({
      zh: '验证码不正确或已使用过，请输入验证器上的新验证码',
      en: 'The code is wrong or was already used; enter the new code your authenticator shows',
    });
  }
}

/** Only the account itself (not its staff, not login-as) sets the rule for those below it. */
const setsPolicy = (ctx: Ctx) => ctx.me.userid === null && ctx.me.actor === null;

export const secondFactorHandlers = {
  'as.m.secondFactor.getStatus': async (_input, ctx) => {
    const me = myself(ctx);
    return {
      enrolled: await isEnrolled(ctx.db, me),
      required: await secondFactorRequired(ctx.db, me),
      recoveryleft: await recoveryCodesLeft(ctx.db, me),
      policy: setsPolicy(ctx) ? { required: await policyOf(ctx.db, me.musercode) } : null,
    };
  },

  'as.m.secondFactor.begin': async (_input, ctx) => {
    const me = myself(ctx);
    if (await isEnrolled(ctx.db, me)) {
      invalid({
        zh: '双重验证已开启；如需更换验证器，请先关闭',
        en: 'The second factor is already on; to change the authenticator, turn it off first',
      });
    }
    return beginEnrolment(ctx.db, me, await labelOf(ctx, me), ctx.now());
  },

  'as.m.secondFactor.confirm': async ({ code }, ctx) => {
    const me = myself(ctx);
    await requireCode(ctx, me, code, true);
    const recoverycodes = await newRecoveryCodes(ctx.db, me);
    await ctx.audit({ result: 'ok', detail: { enrolled: true } });
    return { recoverycodes };
  },

  'as.m.secondFactor.renewRecoveryCodes': async ({ code }, ctx) => {
    const me = myself(ctx);
    await requireCode(ctx, me, code);
    const recoverycodes = await newRecoveryCodes(ctx.db, me);
    await ctx.audit({ result: 'ok' });
    return { recoverycodes };
  },

  'as.m.secondFactor.disable': async ({ code }, ctx) => {
    const me = myself(ctx);
    if (await secondFactorRequired(ctx.db, me)) {
      denied({ zh: '您的管理员要求使用双重验证，不能关闭', en: 'Your administrator requires a second factor; it cannot be turned off' });
    }
    await requireCode(ctx, me, code);
    await removeSecondFactor(ctx.db, me);
    await ctx.audit({ result: 'ok' });
    return null;
  },

  'as.m.secondFactor.setPolicy': async ({ required }, ctx) => {
    if (!setsPolicy(ctx)) {
      denied({ zh: '只有账号本人登录时可以设置此项', en: 'Only the account itself, signed in as itself, can set this' });
    }
    const ended = await ctx.db.transaction(async (tx) => {
      await setPolicy(tx, ctx.me.musercode, required, ctx.me.issuper, ctx.now());
      return required ? endPasswordOnlySessions(tx, ctx.now(), ctx.me.tokenhash) : 0;
    });
    await ctx.audit({ result: 'ok', detail: { required, ended } });
    return null;
  },

  'as.m.user.resetSecondFactor': async ({ musercode }, ctx) => {
    if (musercode === ctx.me.musercode) {
      invalid({
        zh: '不能重置自己账号的双重验证；请在右上角账号菜单中管理',
        en: 'You cannot reset your own account’s second factor; manage it in the account menu (top right)',
      });
    }
    await accountInScope(ctx, ctx.db, musercode);
    await checkTakeover(ctx, musercode);
    const removed = await removeSecondFactor(ctx.db, { musercode, userid: null });
    await ctx.audit({ result: 'ok', detail: { target: musercode, removed } });
    return null;
  },
} satisfies HandlerMap;
