import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import type { Message } from '../../http/errors.js';
import { agreeToNotice, consentStanding, giveGuardianConsent, noticeAndWithdrawal, refuseForConsent } from '../consent/index.js';
import { codeOf } from './respondent.js';

/**
 * The respondent's consent step (issue 30 §4): the person agrees separately to the institution's
 * notice on sensitive personal information, or, for a child under 14, a guardian consents on the
 * phone. The consent domain keeps the records; here is only who the respondent is.
 */

const WITHDRAWN: Message = {
  zh: '同意已撤回，不能在此重新同意。请联系为你安排测评的机构。',
  en: 'Consent was withdrawn and cannot be given again here. Please contact the institution that arranged the assessment.',
};

/** The respondent as a caller of consent (their code as their token was resolved in this request). */
async function respondentOf(ctx: Ctx) {
  const code = await codeOf(ctx.db, ctx.respondent!);
  return { assesscode: code.assesscode, musercode: code.musercode, cusercode: code.cusercode };
}

export const respondentConsentHandlers = {
  // Refused when consent was withdrawn (a new consent cannot undo it on the phone). Whether the
  // person is a minor does not matter here, so only the notice and their records are read.
  'as.c.exam.agreeNotice': async ({ version }, ctx) => {
    const caller = await respondentOf(ctx);
    const { notice, withdrawn } = await noticeAndWithdrawal(ctx.db, caller.musercode, caller.cusercode);
    if (withdrawn) refuseForConsent(WITHDRAWN);
    await agreeToNotice(ctx, caller, version, notice);
    return null;
  },

  'as.c.exam.giveGuardianConsent': async (input, ctx) => {
    const caller = await respondentOf(ctx);
    const standing = await consentStanding(ctx.db, caller.musercode, caller.cusercode, ctx.now());
    if (standing.withdrawn) refuseForConsent(WITHDRAWN);
    if (!standing.minor) refuseForConsent({ zh: '年满十四周岁的受测者由本人同意，无需监护人同意', en: 'A respondent aged 14 or over consents themselves; no guardian’s consent is needed' });
    await giveGuardianConsent(ctx, caller, input);
    return null;
  },
} satisfies HandlerMap;
