import { z } from 'zod';
import { action, codes, flag, idString, md5Password, pageFields, pageOf, requiredText, text, websiteUrl } from '../catalogue-kit.js';

/**
 * Provider management (SPEC §2 /Service): institutions (terminal, 00021) and providers
 * (usersManager, 00022), their regions, category path, respondent entry and QR code.
 * Who may create which type: the super account any type; a provider (005) institutions
 * (001–004) under itself; an institution none.
 */

const SERVICE = ['00021', '00022'];
/** Seeing and undoing QR-link entries (issue 27 item 4) is archive management: the all-archives page. */
const LINK_ENTRIES = ['00049'];

const linkInstant = z.iso.datetime({ offset: true });
/** A window of QR-link entries of one institution: at most 7 days, start before end. */
const linkWindow = { musercode: idString, startat: linkInstant, endat: linkInstant };
const windowRules = <S extends z.ZodType<{ startat: string; endat: string }>>(schema: S) =>
  schema
    .refine((v) => Date.parse(v.startat) < Date.parse(v.endat), { message: 'endat must be after startat', path: ['endat'] })
    .refine((v) => Date.parse(v.endat) - Date.parse(v.startat) <= 7 * 86_400_000, { message: 'a window is at most 7 days', path: ['endat'] });
export const linkEntryHour = z.object({ hourstart: z.string(), count: z.number(), warnings: z.number(), undone: z.number() });
export type LinkEntryHour = z.infer<typeof linkEntryHour>;
const linkEntryUndo = z.object({ persons: z.number(), cases: z.number(), reports: z.number() });

export const musertypeValue = z.enum(['001', '002', '003', '004', '005']);
export type MUserTypeValue = z.infer<typeof musertypeValue>;

/** GB/T 2260 region codes, six digits (province 110000, city 110100, district 110101). */
export const regionCode = z.string().regex(/^[0-9]{6}$/);
/** A district may be empty only where the city has no districts (e.g. 东莞市). */
const districtCode = z.union([regionCode, z.literal('')]);

/**
 * One level of the category path: a short label (letters of any script, digits, _ and -).
 * The path categorycode0..5 may not skip a level; categorylevel and categorycode (the deepest
 * one) are derived by the server.
 */
export const categoryCode = z
  .string()
  .trim()
  .max(32)
  .regex(/^[\p{L}\p{N}_-]*$/u);
export const categoryFields = {
  categorycode0: categoryCode.default(''),
  categorycode1: categoryCode.default(''),
  categorycode2: categoryCode.default(''),
  categorycode3: categoryCode.default(''),
  categorycode4: categoryCode.default(''),
  categorycode5: categoryCode.default(''),
};

/** Account sign-in names share the rule of staff sign-in names (one namespace, migration 0006). */
export const musername = z
  .string()
  .trim()
  .min(2)
  .max(30)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]*$/);
const phoneNumber = z.union([
  z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 -]{4,18}[0-9]$/),
  z.literal(''),
]);
const optionalFlag = z.union([flag, z.literal('')]).optional();

/** A row of the institution and provider lists. The phone is masked (138****5678); getMUser answers it in full. */
export const muserRow = z.object({
  musercode: z.string(),
  username: z.string(),
  musertype: z.string(),
  insname: z.string(),
  realname: z.string(),
  phonenumber: z.string(),
  provincecode: z.string(),
  citycode: z.string(),
  districtcode: z.string(),
  /** 'province city district' names, as in the logged-in user record. */
  regionname: z.string(),
  categorycode: z.string(),
  categorylevel: z.int(),
  categorycode0: z.string(),
  categorycode1: z.string(),
  categorycode2: z.string(),
  categorycode3: z.string(),
  categorycode4: z.string(),
  categorycode5: z.string(),
  /** The provider that owns an institution; null for providers of the platform and the super account. */
  parentcode: z.string().nullable(),
  parentname: z.string(),
  enabled: z.int(),
  /** The respondent entry link, '' until createMUserClient. */
  qrcodeurl: z.string(),
  /** The account's own web site, '' for none. */
  website: z.string(),
  /** Signs in with a confirmed second factor (an MLPS review asks who does). */
  secondfactor: z.boolean(),
  createdat: z.string(),
});
export type MUserRow = z.infer<typeof muserRow>;

/** List filters, shared by the list and its export. kind: institutions (001–004) or providers (005). */
const listFilters = {
  kind: z.enum(['institution', 'provider']).optional(),
  insname: text(100).optional(),
  username: text(30).optional(),
  musertype: z.union([musertypeValue, z.literal('')]).optional(),
  provincecode: districtCode.optional(),
  citycode: districtCode.optional(),
  districtcode: districtCode.optional(),
  /** Matches accounts with this label at any level of their category path. */
  categorycode: categoryCode.optional(),
  enabled: optionalFlag,
  /** The owning provider (super account filtering by provider). */
  parentcode: idString.optional(),
  /** Signs in with a confirmed second factor (1) or not (0). */
  secondfactor: optionalFlag,
};

const appid = z.string().regex(/^[0-9]{9}$/);

/** What the institution's respondents see when they open its link (issue 10, respondent entry). */
const clientFields = {
  title: requiredText(50),
  /** An https URL or a path on this server; '' for none. */
  logourl: z.union([
    z
      .string()
      .trim()
      .max(500)
      .regex(/^(https:\/\/|\/)[^\s"'<>]*$/),
    z.literal(''),
  ]),
  welcome: text(2000),
  consent: text(5000),
  /** Population apps offered (a subset of the institution's apps). */
  appids: z.array(appid).max(10),
  /** Stages offered (the institution's own stages of those apps); empty for all. */
  stagecodes: z.array(idString).max(50),
  /** 1: respondents see their results after finishing. */
  showresult: flag,
  hotline: text(200),
};
const clientDefaults = {
  logourl: clientFields.logourl.default(''),
  welcome: text(2000).default(''),
  consent: text(5000).default(''),
  appids: z.array(appid).max(10).default([]),
  stagecodes: z.array(idString).max(50).default([]),
  showresult: flag.default(0),
  hotline: text(200).default(''),
};

export const muserClient = z.object({
  musercode: z.string(),
  title: z.string(),
  logourl: z.string(),
  welcome: z.string(),
  consent: z.string(),
  appids: z.array(z.string()),
  stagecodes: z.array(z.string()),
  showresult: z.int(),
  hotline: z.string(),
  /** `<public base>/r/<token>`: the link the QR code carries. */
  qrcodeurl: z.string(),
  updatedat: z.string(),
});
export type MUserClient = z.infer<typeof muserClient>;

/** A node of the category tree built from the paths of the accounts in scope. */
export interface CategoryNode {
  code: string;
  level: number;
  /** Accounts whose path passes through this node. */
  count: number;
  children: CategoryNode[];
}
export const categoryNode: z.ZodType<CategoryNode> = z.object({
  code: z.string(),
  level: z.int(),
  count: z.int(),
  get children() {
    return z.array(categoryNode);
  },
});

export const accountActions = {
  'as.m.user.getMUserPageList': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'list',
    summary:
      'Institutions and providers in scope, paged, newest first; filters: kind, name, account, type, region, category label, enabled, owning provider, second factor. Phones masked.',
    input: z.strictObject({ ...pageFields, ...listFilters }),
    output: pageOf(muserRow),
    ids: { parentcode: 'muser' },
  }),
  'as.m.user.getMUser': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'read',
    summary: 'The edit form of an account in scope (phone in full; audited).',
    input: z.strictObject({ musercode: idString }),
    output: muserRow,
    ids: { musercode: 'muser' },
  }),
  'as.m.user.addMUser': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'write',
    summary:
      'Create an institution or provider: a sign-in name unique among all accounts and staff users, the MD5 password, a type the caller may create, ' +
      'GB/T 2260 region codes that nest, and a category path without gaps. A provider’s new institutions belong to it; the super account may name the owning provider (parentcode).',
    input: z.strictObject({
      username: musername,
      pwd: md5Password,
      musertype: musertypeValue,
      insname: requiredText(100),
      realname: text(64).default(''),
      phonenumber: phoneNumber.default(''),
      website: websiteUrl.default(''),
      provincecode: regionCode,
      citycode: regionCode,
      districtcode: districtCode,
      ...categoryFields,
      enabled: flag.default(1),
      parentcode: idString.optional(),
    }),
    output: z.object({ musercode: z.string() }),
    ids: { parentcode: 'muser' },
    unique: ['username'],
    changes: 'grants',
  }),
  'as.m.user.deleteMUser': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'write',
    summary:
      'Delete an account in scope; refused while it owns institutions, staff users, plans, persons or reports. Nobody deletes their own account, nor one holding codes the caller does not.',
    input: z.strictObject({ musercode: idString }),
    output: z.null(),
    ids: { musercode: 'muser' },
    changes: 'state',
  }),
  'as.m.user.updateMUserCategory': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'write',
    summary: 'Move an account in scope within the category tree: replace its category path (no level skipped).',
    input: z.strictObject({ musercode: idString, ...categoryFields }),
    output: z.null(),
    ids: { musercode: 'muser' },
  }),
  'as.m.user.getMUserCategoryTree': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'list',
    summary: 'The category tree of the accounts in scope (their paths merged), with counts; kind limits it to institutions or providers.',
    input: z.strictObject({ kind: z.enum(['institution', 'provider']).optional() }),
    output: z.array(categoryNode),
  }),
  'as.m.user.enableMuser': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'write',
    summary:
      'Enable (1) or disable (0) an account in scope that holds no code the caller does not; disabling ends its sessions (and its staff users’ and login-as sessions) at once.',
    input: z.strictObject({ musercode: idString, enabled: flag }),
    output: z.null(),
    ids: { musercode: 'muser' },
    changes: 'state',
  }),
  'as.m.user.getDistrictList': action({
    access: 'signedIn',
    kind: 'json',
    op: 'list',
    summary: 'GB/T 2260 regions: the provinces (parentcode empty), or the cities of a province, or the districts of a city.',
    input: z.strictObject({ parentcode: districtCode.default('') }),
    output: z.array(z.object({ code: z.string(), name: z.string() })),
  }),
  'as.m.user.getMUserClient': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'read',
    summary: 'The respondent entry settings and link of an institution in scope; null before createMUserClient.',
    input: z.strictObject({ musercode: idString }),
    output: muserClient.nullable(),
    ids: { musercode: 'muser' },
  }),
  'as.m.user.createMUserClient': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'write',
    summary:
      'Create the respondent entry of an institution (001–004) in scope with a new unguessable link; refused when it exists. Apps must be the institution’s, stages its own.',
    input: z.strictObject({ musercode: idString, title: clientFields.title, ...clientDefaults }),
    output: z.object({ qrcodeurl: z.string() }),
    ids: { musercode: 'muser', stagecodes: 'stage' },
    changes: 'settings',
  }),
  'as.m.user.updateMUserClient': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'write',
    summary: 'Change the respondent entry settings of an institution in scope (only the fields sent); the link stays.',
    input: z.strictObject({ musercode: idString, ...z.object(clientFields).partial().shape }),
    output: z.null(),
    ids: { musercode: 'muser', stagecodes: 'stage' },
    changes: 'settings',
  }),
  'as.m.user.resetQrCode': action({
    access: codes(...SERVICE),
    kind: 'json',
    op: 'write',
    summary: 'Give an institution’s respondent entry a new link; the old link stops working at once.',
    input: z.strictObject({ musercode: idString }),
    output: z.object({ qrcodeurl: z.string() }),
    ids: { musercode: 'muser' },
    changes: 'settings',
  }),
  'as.m.user.downloadQrCode': action({
    access: codes(...SERVICE),
    kind: 'download',
    op: 'read',
    summary: 'The QR code PNG of an institution’s respondent link, 400×400 (large dialog) or 200×200 (account dialog), SPEC §9.',
    input: z.strictObject({ musercode: idString, size: z.union([z.literal(400), z.literal(200)]).default(400) }),
    output: z.unknown(),
    ids: { musercode: 'muser' },
  }),
  'as.m.user.getLinkEntryHours': action({
    access: codes(...LINK_ENTRIES),
    kind: 'json',
    op: 'list',
    summary:
      'Persons registered through an institution’s QR link, per hour of the last `days` days (newest first, hours without entries left out): how many, how many of them have a warning case, how many were undone.',
    input: z.strictObject({ musercode: idString, days: z.number().int().min(1).max(31).default(7) }),
    output: z.array(linkEntryHour),
    ids: { musercode: 'muser' },
  }),
  'as.m.user.previewUndoLinkEntries': action({
    access: codes(...LINK_ENTRIES),
    kind: 'json',
    op: 'read',
    summary:
      'What undoLinkEntries would remove for the same window: the persons registered through the institution’s QR link in [startat, endat) and not undone yet, their warning cases and their reports.',
    input: windowRules(z.strictObject(linkWindow)),
    output: linkEntryUndo,
    ids: { musercode: 'muser' },
  }),
  'as.m.user.undoLinkEntries': action({
    access: codes(...LINK_ENTRIES),
    kind: 'json',
    op: 'write',
    summary:
      'Undo a burst of QR-link entries: removes the persons registered through the institution’s link in [startat, endat), with their warning cases, codes, answers and reports, and nothing else. `count` is the number of persons the preview showed: a different number is a conflict and removes nothing. Audited.',
    input: windowRules(z.strictObject({ ...linkWindow, count: z.number().int().min(0).max(100_000) })),
    output: linkEntryUndo,
    ids: { musercode: 'muser' },
  }),
  'as.m.user.exportToFile': action({
    access: codes(...SERVICE),
    kind: 'download',
    op: 'export',
    summary: 'The filtered institution/provider list as .xlsx (streamed; phones masked). Audited.',
    input: z.strictObject(listFilters),
    output: z.unknown(),
    ids: { parentcode: 'muser' },
  }),
  'as.m.user.exportToZipFile': action({
    access: codes(...SERVICE),
    kind: 'download',
    op: 'export',
    summary: 'A zip of the 400×400 QR code PNGs of the named institutions in scope, one per institution, named by insname. Audited.',
    input: z.strictObject({ musercodes: z.array(idString).min(1).max(200) }),
    output: z.unknown(),
    ids: { musercodes: 'muser' },
  }),
};
