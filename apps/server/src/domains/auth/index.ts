/**
 * What other domains may call of auth: scope checks and filters, passwords, sessions, the grants
 * of roles and account takeover checks.
 */
export { type CallerCache } from './caller-cache.js';
export { signInJobs } from './login.js';
export { hashPassword, md5Upper } from './passwords.js';
export { accountCodes, ADMIN_ROLE_KEY, resolveGrants, roleGives } from './permissions.js';
export { assertInScope, holds, inScope, scopeWhere } from './scope.js';
export { authenticate, hashToken, newToken, revokeAccountSessions, revokeUserSessions } from './sessions.js';
export { assertHoldsAccount } from './takeover.js';
export { authSealedFields, enrolledSubjects, removeSecondFactor, secondFactorWhere, subjectOf } from './second-factor.js';
export { acceptCode, beginEnrolment, newRecoveryCodes } from './second-factor.js';
export { DEMO_SECOND_FACTOR, demoSecondFactorUri, seedDemoSecondFactor } from './demo.js';
