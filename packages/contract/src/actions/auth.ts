import { z } from 'zod';
import { action, codes, md5Password, idString, requiredText, text, permissionCode, SET_PASSWORD_CODE, websiteUrl } from '../catalogue-kit.js';

/** The logged-in user record of SPEC §3, plus the account attributes that replace code-keyed rules. */
export const userRecord = z.object({
  token: z.string(),
  userid: z.string().nullable(),
  musercode: z.string(),
  musertype: z.string(),
  permissions: z.array(z.object({ component: z.string() })),
  roles: z.array(z.string()),
  provincecode: z.string(),
  citycode: z.string(),
  districtcode: z.string(),
  regionname: z.string(),
  categorycode: z.string(),
  categorylevel: z.int(),
  categorycode0: z.string(),
  categorycode1: z.string(),
  categorycode2: z.string(),
  categorycode3: z.string(),
  categorycode4: z.string(),
  categorycode5: z.string(),
  username: z.string(),
  sysusername: z.string(),
  insname: z.string(),
  realname: z.string(),
  phonenumber: z.string(),
  qrcodeurl: z.string(),
  /** 'FW01' or 'JYJ' or '' (SPEC §2 catch-all landing). */
  loginasmarker: z.string(),
  /** SPEC §6: exempt from the app-selection dialog. */
  appdialogexempt: z.boolean(),
  /** SPEC §6: extra navbar buttons (official website, big-screen dashboard). */
  navbarlinks: z.array(z.object({ key: z.string(), url: z.string() })),
  /** Set while a provider acts as one of its institutions. */
  actingas: z.string().nullable(),
  /** The institution's time zone (IANA name): the console shows every time in it, as exports and PDFs do. */
  timezone: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

/** A sign-in challenge (issue 30 §1): single-use, short-lived, bound to one account; not a token. */
const challenge = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
/** A six-digit TOTP code (RFC 6238, 30-second steps). */
const totpCode = z.string().trim().regex(/^[0-9]{6}$/);
/** A one-time recovery code as shown at enrolment (XXXXX-XXXXX); case, spaces and dashes do not matter. */
const recoveryCode = z.string().trim().min(10).max(16);

/**
 * The first sign-in step's answer when the password was right but a second factor is needed:
 * `code` (enter a TOTP or recovery code) or `enrol` (the policy requires one and none is set up yet).
 */
export const signInChallenge = z.object({
  secondfactor: z.enum(['code', 'enrol']),
  challenge: z.string(),
  expiresat: z.string(),
});
export type SignInChallenge = z.infer<typeof signInChallenge>;

/** Enrolment: the otpauth:// URI, its secret (for typing in by hand) and a QR code of the URI (PNG data URL). */
export const enrolment = z.object({ uri: z.string(), secret: z.string(), qr: z.string() });
export type Enrolment = z.infer<typeof enrolment>;

export const recoveryCodes = z.object({ recoverycodes: z.array(z.string()) });

export const authActions = {
  'as.m.user.login': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary:
      'Sign in with a username and the uppercase MD5 of the password; answers the user record with a new token. ' +
      'An account or staff user with a second factor (or whose administrator requires one) gets a short-lived challenge instead ' +
      '(secondfactor: code or enrol), completed by loginSecondFactor or enrolSecondFactor/confirmSecondFactor.',
    input: z.strictObject({ username: requiredText(64), pwd: md5Password }),
    output: z.union([userRecord, signInChallenge]),
  }),
  'as.m.user.loginSecondFactor': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary:
      'The second sign-in step: the challenge of the first and a TOTP code (or one unused recovery code); answers the user record with a new token. ' +
      'Wrong codes count towards the sign-in lockout; a code is accepted once.',
    input: z.strictObject({ challenge, code: totpCode.optional(), recoverycode: recoveryCode.optional() }),
    output: userRecord,
  }),
  'as.m.user.enrolSecondFactor': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary: 'With an enrol challenge (a second factor is required and none is set up): starts enrolment; answers the otpauth URI, its secret and a QR code.',
    input: z.strictObject({ challenge }),
    output: enrolment,
  }),
  'as.m.user.confirmSecondFactor': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary:
      'With an enrol challenge and the first code of the new authenticator: completes enrolment and sign-in; answers the user record and ten one-time recovery codes (shown once).',
    input: z.strictObject({ challenge, code: totpCode }),
    output: z.object({ user: userRecord, recoverycodes: z.array(z.string()) }),
  }),
  'as.m.secondFactor.getStatus': action({
    access: 'signedIn',
    kind: 'json',
    op: 'read',
    summary:
      'The caller’s own second factor: enrolled or not, whether a policy requires it, recovery codes left; and the policy this account sets for those below it (null when the caller may not set it).',
    input: z.strictObject({}),
    output: z.object({
      enrolled: z.boolean(),
      required: z.boolean(),
      recoveryleft: z.int(),
      policy: z.object({ required: z.boolean() }).nullable(),
    }),
  }),
  'as.m.secondFactor.begin': action({
    access: 'signedIn',
    kind: 'json',
    op: 'write',
    summary: 'Starts enrolling the caller’s own second factor (not in a login-as session); answers the otpauth URI, its secret and a QR code. Refused when one is already set up.',
    input: z.strictObject({}),
    output: enrolment,
  }),
  'as.m.secondFactor.confirm': action({
    access: 'signedIn',
    kind: 'json',
    op: 'write',
    summary: 'Completes the caller’s enrolment with the first code of the authenticator; answers ten one-time recovery codes (shown once, stored hashed). Audited.',
    input: z.strictObject({ code: totpCode }),
    output: recoveryCodes,
  }),
  'as.m.secondFactor.renewRecoveryCodes': action({
    access: 'signedIn',
    kind: 'json',
    op: 'write',
    summary: 'With a current code: replaces the caller’s recovery codes with ten new ones (the old stop working). Audited.',
    input: z.strictObject({ code: totpCode }),
    output: recoveryCodes,
  }),
  'as.m.secondFactor.disable': action({
    access: 'signedIn',
    kind: 'json',
    op: 'write',
    summary: 'With a current code: turns the caller’s own second factor off; refused while a policy requires it. Audited.',
    input: z.strictObject({ code: totpCode }),
    output: z.null(),
  }),
  'as.m.secondFactor.setPolicy': action({
    access: 'signedIn',
    kind: 'json',
    op: 'write',
    summary:
      'Require a second factor of everyone below the caller’s account: the super account (every account and staff user), a provider (its institutions, their staff and its own), ' +
      'an institution (its staff users). Only the account itself signed in (not a staff user, not login-as). Audited.',
    input: z.strictObject({ required: z.boolean() }),
    output: z.null(),
    changes: 'settings',
  }),
  'as.m.user.resetSecondFactor': action({
    access: codes('00021', '00022'),
    kind: 'json',
    op: 'write',
    summary:
      'An administrator above the account (the super account for a provider, a provider for its institutions) removes its second factor and recovery codes, so it enrols again; ' +
      'needs code 0003131 and every code the account holds. Audited.',
    input: z.strictObject({ musercode: idString }),
    output: z.null(),
    ids: { musercode: 'muser' },
    changes: 'password',
    needs: [SET_PASSWORD_CODE],
  }),
  'as.m.user.logout': action({
    access: 'signedIn',
    kind: 'json',
    op: 'auth',
    summary: 'Revoke the token of this session.',
    input: z.strictObject({ token: z.string().max(128).optional() }),
    output: z.null(),
  }),
  'as.m.user.loginAs': action({
    access: codes('00021'),
    kind: 'json',
    op: 'auth',
    summary:
      'A provider (or the super account, or a provider’s staff user) acts as one of its institutions; answers a user record for it. Audited. ' +
      'The session ends with the session that opened it (sign-out, expiry, revocation) and with whoever opened it, and holds only the codes they hold.',
    input: z.strictObject({ musercode: idString }),
    output: userRecord,
    ids: { musercode: 'muser' },
    changes: 'grants',
  }),
  'as.m.user.updateMUser': action({
    access: 'signedIn',
    kind: 'json',
    op: 'write',
    summary:
      'Change the signed-in account’s password (musercode, oldpwd: the current password, and pwd); a wrong or missing current ' +
      'password is refused and changes nothing; every session of the account is revoked. ' +
      'A staff user naming its own institution changes its own name, phone and password, never the institution’s; ' +
      'the institution’s name and website need code 00021 or 00022. Changing another account needs code 00021 or 00022 and that account in scope; ' +
      'so do the region codes (all three together, GB/T 2260, nesting checked). Setting another account’s password (a login-as ' +
      'session’s included) also needs code 0003131, and only for an account whose codes the caller holds all of.',
    input: z.strictObject({
      musercode: idString,
      pwd: md5Password.optional(),
      /** The current password, needed to change one's own: a typo cannot lock the user out. */
      oldpwd: md5Password.optional(),
      insname: text(100).optional(),
      /** The account's own web site (the navbar's website button), an institution-level field like insname. */
      website: websiteUrl.optional(),
      realname: text(64).optional(),
      phonenumber: text(20).optional(),
      provincecode: z
        .string()
        .regex(/^[0-9]{6}$/)
        .optional(),
      citycode: z
        .string()
        .regex(/^[0-9]{6}$/)
        .optional(),
      districtcode: z.union([z.string().regex(/^[0-9]{6}$/), z.literal('')]).optional(),
    }),
    output: z.null(),
    ids: { musercode: 'muser' },
    changes: 'password',
    needs: [SET_PASSWORD_CODE],
  }),
  'as.m.system.ping': action({
    access: 'signedIn',
    kind: 'json',
    op: 'read',
    summary: 'Answers the server time; a signed-in no-op used by health checks and the API benchmark.',
    input: z.strictObject({}),
    output: z.object({ time: z.string() }),
  }),
  'as.m.permissions.getAllPermissions': action({
    access: codes('00023', '00022', '00021'),
    kind: 'json',
    op: 'read',
    summary: 'The permission codes an account holds, and the codes the caller may grant (its own).',
    input: z.strictObject({ musercode: idString }),
    output: z.object({ granted: z.array(permissionCode), grantable: z.array(permissionCode) }),
    ids: { musercode: 'muser' },
  }),
  'as.m.permissions.updateUserPermissions': action({
    access: codes('00023', '00022', '00021'),
    kind: 'json',
    op: 'write',
    summary: 'Replace the permission codes of an account in scope; the caller cannot grant codes it does not hold.',
    input: z.strictObject({ musercode: idString, permissions: z.array(permissionCode).max(500) }),
    output: z.null(),
    ids: { musercode: 'muser' },
    changes: 'grants',
  }),
};
