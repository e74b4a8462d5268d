/**
 * What other domains may call of consent (issue 30 §4; PIPL Arts. 14, 28, 29, 31): the notice a
 * respondent is shown, giving consent on the phone, whether a person may answer (refused: 422),
 * a respondent's standing and notice from their person already read (personConsent), persons'
 * consent standings (task progress), a person's consent records (their export) and the removal of
 * the identity they hold (erasure).
 */
export { agreeToNotice, giveGuardianConsent, type GuardianConsent } from './give.js';
export { currentNotice, type Notice } from './notice.js';
export { consentsOfPerson, eraseConsentIdentity } from './person.js';
export { assertMayAnswer, assertNoneWithdrawn, assertStandingAllows, consentStanding, refuseForConsent, consentStandings, type ConsentStanding } from './state.js';
export { type ConsentPerson, noticeAndWithdrawal, personConsent } from './state.js';
export { DEMO_NOTICES, DEMO_SIGNATURE, markConsentSheet, seedConsentDemo } from './demo.js';
