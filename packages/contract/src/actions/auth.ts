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

export const authActions = {
  'as.m.user.login': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary: 'Sign in with a username and the uppercase MD5 of the password; answers the user record with a new token.',
    input: z.strictObject({ username: requiredText(64), pwd: md5Password }),
    output: userRecord,
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
