import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { agreeToNotice, consentStanding, giveGuardianConsent, refuseForConsent } from '../consent/index.js';
import { codeOf } from './respondent.js';

/**
 * The respondent's consent step (issue 30 §4): the person agrees separately to the institution's
 * notice on sensitive personal information, or, for a child under 14, a guardian consents on the
 * phone. The consent domain keeps the records; here is only who the respondent is.
 */

/** The respondent's person, refused when consent was withdrawn (a new consent cannot undo it on the phone). */
async function respondentPerson(ctx: Ctx) {
  const code = await codeOf(ctx.db, ctx.respondent!);
  const standing = await consentStanding(ctx.db, code.musercode, code.cusercode, ctx.now());
  if (standing.withdrawn)
    refuseForConsent({ zh: '同意已撤回，不能在此重新同意。请联系为你安排测评的机构。', en: 'Consent was withdrawn and cannot be given again here. Please contact the institution that arranged the assessment.' });
  return { caller: { assesscode: code.assesscode, musercode: code.musercode, cusercode: code.cusercode }, standing };
}

export const respondentConsentHandlers = {
  'as.c.exam.agreeNotice': async ({ version }, ctx) => {
    const { caller } = await respondentPerson(ctx);
    await agreeToNotice(ctx, caller, version);
    return null;
  },

  'as.c.exam.giveGuardianConsent': async (input, ctx) => {
    const { caller, standing } = await respondentPerson(ctx);
    if (!standing.minor) refuseForConsent({ zh: '年满十四周岁的受测者由本人同意，无需监护人同意', en: 'A respondent aged 14 or over consents themselves; no guardian’s consent is needed' });
    await giveGuardianConsent(ctx, caller, input);
    return null;
  },
} satisfies HandlerMap;
