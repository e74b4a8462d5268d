import { z } from 'zod';
import { personName } from '../person-name.js';
import { action, base64File, codes, idString, pageFields, pageOf, text } from '../catalogue-kit.js';
import { localText } from '../scales/definition.js';
import { reliableChange } from './norms.js';

/**
 * Persons (cuser, 测评对象) and their archives (SPEC §2 /archives 00008, /empower 00018; §3 person,
 * archive, gender, form type 02, input types 0–8; §7 Person records).
 *
 * A person belongs to one institution and one population app. Besides name, gender, birth date,
 * phone and ID number, a person carries the answers of the app's user-archive form (form type 02):
 * one answer per question, `{ no, value }`, whose value follows the question (see archiveValue).
 *
 * Phone and ID number are personal data: lists and exports show them masked (138****5678,
 * 1101**********1234) unless the caller holds PERSON_IDENTITY_CODE; a read that answers the full
 * values is audited.
 */

/** Component permission: see full phone and ID numbers of persons (lists, exports, details). */
export const PERSON_IDENTITY_CODE = '0000801';

const appid = z.string().regex(/^[0-9]{9}$/);
const optionalAppid = z.union([appid, z.literal('')]).optional();
/** SPEC §3: 01 male, 02 female. */
export const genderCode = z.enum(['01', '02']);
/** A real calendar date YYYY-MM-DD. */
export const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(d)) && new Date(Date.parse(d)).toISOString().slice(0, 10) === d, 'not a calendar date');

/** A mainland mobile number (11 digits starting with 1). */
export const mobileNumber = z
  .string()
  .trim()
  .regex(/^1[3-9][0-9]{9}$/);

/** The check character of an 18-character resident ID number (GB 11643-1999, ISO 7064 MOD 11-2). */
export function idCardCheckChar(first17: string): string {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...first17].reduce((s, c, i) => s + Number(c) * weights[i]!, 0);
  return '10X98765432'[sum % 11]!;
}
/** An 18-character resident ID number with a correct check character (upper-case X). */
export const idCardNumber = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[0-9]{17}[0-9X]$/, 'ID number: 18 characters'))
  .refine((s) => idCardCheckChar(s.slice(0, 17)) === s[17], 'ID number: wrong check character');

/**
 * One archive answer: `no` is the question number of the app's archive form. The value by
 * question: single choice (type 1) the option position from 1; multiple choice (type 2) the
 * positions; fill-in (type 0) by input type: 0 text, 1 integer, 2 decimal, 3 date YYYY-MM-DD,
 * 4 time HH:mm, 5 date and time YYYY-MM-DD HH:mm, 6 time range HH:mm-HH:mm, 7 a number in the
 * question's range, 8 a region code (6 digits: province, city or district).
 */
export const archiveValue = z.union([
  z.string().trim().max(500),
  z.number().refine(Number.isFinite),
  z.array(z.int().min(1).max(50)).max(50),
]);
export const archiveAnswer = z.strictObject({ no: z.int().min(1).max(1000), value: archiveValue });
export const archiveAnswers = z.array(archiveAnswer).max(200);
export type ArchiveAnswer = z.infer<typeof archiveAnswer>;

/** One column of an app's archive (a question of its type-02 form), for list heads and forms. */
export const archiveColumn = z.object({
  /** Column key in archive rows: `q<no>`. */
  key: z.string(),
  no: z.int(),
  title: localText(1000),
  /** 0 fill-in, 1 single choice, 2 multiple choice. */
  type: z.int(),
  inputtype: z.int().nullable(),
  required: z.boolean(),
  options: z.array(localText(500)),
  range: z.object({ min: z.number(), max: z.number() }).nullable(),
});
export type ArchiveColumn = z.infer<typeof archiveColumn>;

export const cuserRow = z.object({
  cusercode: z.string(),
  musercode: z.string(),
  insname: z.string(),
  appid: z.string(),
  appname: z.string(),
  realname: z.string(),
  gender: z.string(),
  birthdate: z.string(),
  /** Masked unless the caller holds PERSON_IDENTITY_CODE. */
  phonenumber: z.string(),
  /** Masked unless the caller holds PERSON_IDENTITY_CODE. */
  idcard: z.string(),
  /** How the person came: console (staff), import (Excel), qrcode (registered through the institution's QR code). */
  source: z.string(),
  createdat: z.string(),
  updatedat: z.string(),
  /** When the person was anonymised (erasure, PIPL Art. 47), or '': then the name reads 已匿名 / Anonymised. */
  anonymisedat: z.string(),
});
export type CuserRow = z.infer<typeof cuserRow>;

/** An archive list row: the person and the display text of each archive column (`q<no>`). */
export const archiveRow = cuserRow.extend({ archive: z.record(z.string(), z.string()) });
export type ArchiveRow = z.infer<typeof archiveRow>;

/** One report of a person over time (for the archive's report list and trend charts). */
export const personReport = z.object({
  reportid: z.string(),
  formcode: z.string(),
  formname: z.string(),
  version: z.int(),
  stagecode: z.string(),
  createdat: z.string(),
  /** Overall mental state 0–4 (SPEC §3). */
  mentalstate: z.int(),
  warning: z.boolean(),
  indicators: z.array(z.object({ code: z.string(), name: z.string(), score: z.number(), level: z.int().nullable(), colour: z.string() })),
  /** Reliable change from the person's previous report of the form (issue 31 §3); null when none. */
  change: reliableChange.nullable().optional(),
});
export type PersonReport = z.infer<typeof personReport>;

/** The person-list filters, shared by the list and its export. */
const personFilters = {
  musercode: z.union([idString, z.literal('')]).optional(),
  appid: optionalAppid,
  realname: text(50).optional(),
  gender: z.union([genderCode, z.literal('')]).optional(),
  /** The whole number: phone and ID numbers are stored sealed and found by their blind index (exact match only). */
  phonenumber: z.union([mobileNumber, z.literal('')]).optional(),
  idcard: z.union([idCardNumber, z.literal('')]).optional(),
  /** Created on or after / on or before (China calendar dates). */
  startdate: calendarDate.optional(),
  enddate: calendarDate.optional(),
};

const personFields = {
  realname: personName,
  gender: genderCode,
  birthdate: z.union([calendarDate, z.literal('')]).optional(),
  phonenumber: z.union([mobileNumber, z.literal('')]).optional(),
  idcard: z.union([idCardNumber, z.literal('')]).optional(),
  archive: archiveAnswers.optional(),
};

/**
 * A file carried in a JSON body: name and base64 bytes. A 50,000-row roster of the templates is
 * about 3 MB of .xlsx (4 MB of base64); the limit leaves room for wide archive forms (12 MB of file).
 */
export const ROSTER_MAX_BASE64 = 16_000_000;
const rosterFile = {
  filename: z.string().trim().min(1).max(200),
  content: base64File(ROSTER_MAX_BASE64),
};

/** One bad row of an import: spreadsheet row number, column title and the reason (caller's language). */
export const importProblem = z.object({ row: z.int(), column: z.string(), reason: z.string() });
export type ImportProblem = z.infer<typeof importProblem>;

/**
 * The three roster imports and the population each serves (README "Person imports"): ZLB
 * 中老年 older adults (000000004), ZNB 孕产妇 maternity (000000001), ZAB 职业人群 working adults
 * (000000003). Students come in through group-assessment rosters (importAssessTeamRoster).
 */
export const importTemplates = { ZLB: '000000004', ZNB: '000000001', ZAB: '000000003' } as const;
export type ImportTemplate = keyof typeof importTemplates;

const importInput = z.strictObject({
  musercode: idString.optional(),
  /** preview: check every row and answer the problems, store nothing; commit: store all rows or none. */
  mode: z.enum(['preview', 'commit']).default('preview'),
  ...rosterFile,
});
const importResult = z.object({
  mode: z.enum(['preview', 'commit']),
  /** Data rows read. */
  total: z.int(),
  /** Rows stored (commit) or that would be stored (preview with no problems). */
  imported: z.int(),
  /** Every bad row (at most 10,000 are listed; problemcount counts them all). */
  problems: z.array(importProblem),
  problemcount: z.int(),
  /** The listed problems as an .xlsx (base64; row, column, reason) for the user to download; '' when none. */
  errorfile: z.string(),
});

/** Person lists: the individual-assessment pages and the archive pages. */
export const PERSON_READ = codes(
  '001801',
  '0000000011',
  '0000000022',
  '0000000033',
  '0000000044',
  '00008',
  '00049',
  '000000001',
  '000000002',
  '000000003',
  '000000004',
);
export const PERSON_WRITE = codes(
  '001801',
  '0000000011',
  '0000000022',
  '0000000033',
  '0000000044',
  '00049',
  '000000001',
  '000000002',
  '000000003',
  '000000004',
);
const ARCHIVE_READ = codes('00008', '00049', '000000001', '000000002', '000000003', '000000004');
const ARCHIVE_WRITE = codes('00049', '000000001', '000000002', '000000003', '000000004');
/** Deciding an institution's retention period (erasure of inactive persons): all archives (00049). */
const RETENTION_WRITE = codes('00049');
/** Retention: months without activity after which a person is anonymised; 0 is off (the default). */
export const RETENTION_MAX_MONTHS = 600;
export const personRetention = z.object({ months: z.int().min(0).max(RETENTION_MAX_MONTHS) });
export type PersonRetention = z.infer<typeof personRetention>;
const IMPORT = codes('001801', '0000000011', '0000000033', '0000000044', '00049', '000000001', '000000003', '000000004');

const importAction = (template: ImportTemplate, who: string) =>
  action({
    access: IMPORT,
    kind: 'json',
    op: 'write',
    summary: `Import ${who} (app ${importTemplates[template]}) from the ${template} Excel template (base64 in the body) for the caller or an institution in scope. mode preview names every bad row (row, column, reason) and stores nothing; mode commit stores every row in one transaction or, with any bad row, refuses (badImportFile) and stores nothing.`,
    input: importInput,
    output: importResult,
    ids: { musercode: 'muser' },
    maxBodyBytes: ROSTER_MAX_BASE64 + 4096,
  });

export const personActions = {
  'as.m.cuser.insertCUser': action({
    access: PERSON_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Register a person of an app for the caller or an institution in scope, with archive answers of the app’s archive form (type 02). An ID number is unique within an institution.',
    input: z.strictObject({ musercode: idString.optional(), appid, ...personFields }),
    output: z.object({ cusercode: z.string() }),
    ids: { musercode: 'muser' },
  }),
  'as.m.cuser.updateCUser': action({
    access: PERSON_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Change a person in scope; fields left out stay; archive, when given, replaces the archive answers.',
    input: z.strictObject({
      cusercode: idString,
      realname: personName.optional(),
      gender: genderCode.optional(),
      birthdate: personFields.birthdate,
      phonenumber: personFields.phonenumber,
      idcard: personFields.idcard,
      archive: archiveAnswers.optional(),
    }),
    output: z.null(),
    ids: { cusercode: 'person' },
  }),
  'as.m.cuser.deleteCUser': action({
    access: PERSON_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Delete a person in scope (the console asks for confirmation first). The person leaves every list; reports and the audit trail are kept.',
    input: z.strictObject({ cusercode: idString }),
    output: z.null(),
    ids: { cusercode: 'person' },
  }),
  'as.m.cuser.getCUserPageList': action({
    access: PERSON_READ,
    kind: 'json',
    op: 'list',
    summary:
      'Persons of the caller’s institutions (or of one), filtered by app, name, gender, phone and creation dates; newest first; phone and ID masked without 0000801.',
    input: z.strictObject({ ...personFilters, ...pageFields }),
    output: pageOf(cuserRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.assess.getCUser': action({
    /** Also the group-assessment pages (teams 00042, tasks 00041), which open a roster member. */
    access: codes(...(PERSON_READ as { codes: string[] }).codes, '00042', '00041'),
    kind: 'json',
    op: 'read',
    summary: 'One person in scope with archive answers; full phone and ID for holders of 0000801 (that read is audited), masked otherwise.',
    input: z.strictObject({ cusercode: idString }),
    output: cuserRow.extend({ archive: archiveAnswers, reportcount: z.int() }),
    ids: { cusercode: 'person' },
  }),
  'as.m.cuser.exportCuserList': action({
    access: PERSON_READ,
    kind: 'download',
    op: 'export',
    summary:
      'Download the filtered person list as .xlsx (streamed; cells starting with = + - @ escaped; phone and ID masked without 0000801); audited.',
    input: z.strictObject(personFilters),
    output: z.unknown(),
    ids: { musercode: 'muser' },
  }),
  'as.m.cuser.getCUserImportTemplate': action({
    access: IMPORT,
    kind: 'download',
    op: 'export',
    summary:
      'Download the Excel template of one roster import (ZLB older adults, ZNB maternity, ZAB working adults), with the app’s archive questions as extra columns.',
    input: z.strictObject({ template: z.enum(['ZLB', 'ZNB', 'ZAB']) }),
    output: z.unknown(),
  }),
  'as.m.cuser.importZLBCUserFromExcel': importAction('ZLB', 'older adults'),
  'as.m.cuser.importZNBCUserFromExcel': importAction('ZNB', 'pregnant and postpartum women'),
  'as.m.cuser.importZABCUserFromExcel': importAction('ZAB', 'working adults'),

  'as.m.cuser.getCUserArchiveHeadList': action({
    access: ARCHIVE_READ,
    kind: 'json',
    op: 'read',
    summary:
      'The archive columns of an app: the questions of its archive form (type 02, the institution’s own before the built-in one), in order.',
    input: z.strictObject({ appid }),
    output: z.object({ formcode: z.string(), formname: z.string(), version: z.int(), columns: z.array(archiveColumn) }),
  }),
  'as.m.cuser.getCUserArchivePageList': action({
    access: ARCHIVE_READ,
    kind: 'json',
    op: 'list',
    summary:
      'Archives of one app (or all apps): persons with the display text of each archive column; filtered like the person list; phone and ID masked without 0000801.',
    input: z.strictObject({ ...personFilters, ...pageFields }),
    output: pageOf(archiveRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.cuser.getCUserArchive': action({
    access: ARCHIVE_READ,
    kind: 'json',
    op: 'read',
    summary:
      'One person’s whole archive: details, archive columns and answers, and every report over time (oldest first) for the trend charts.',
    input: z.strictObject({ cusercode: idString }),
    output: z.object({
      person: cuserRow,
      columns: z.array(archiveColumn),
      archive: archiveAnswers,
      /** Display text of each column, as in the archive list. */
      display: z.record(z.string(), z.string()),
      reports: z.array(personReport),
    }),
    ids: { cusercode: 'person' },
  }),
  'as.m.cuser.deleteCUserArchive': action({
    access: ARCHIVE_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Clear the archive answers of a person in scope (the person and reports stay); audited with the answers removed.',
    input: z.strictObject({ cusercode: idString }),
    output: z.null(),
    ids: { cusercode: 'person' },
  }),

  // ---------- a person's rights over their record (PIPL Arts. 44–47; issue 30 §5) ----------
  'as.m.cuser.exportPersonRecord': action({
    access: ARCHIVE_READ,
    kind: 'download',
    op: 'export',
    summary:
      'Download one person’s whole record (profile, archive answers, every report with its answers and scores, warnings, cases, follow-ups) as JSON or a PDF; full phone and ID numbers; audited once per export with the person as its object.',
    input: z.strictObject({ cusercode: idString, format: z.enum(['json', 'pdf']) }),
    output: z.unknown(),
    ids: { cusercode: 'person' },
  }),
  'as.m.cuser.anonymiseCUser': action({
    access: PERSON_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Erase a person’s identity, irreversibly: name, phone, ID number, birth day and month, free-text answers, signatures and staff notes removed; reports, cases and statistics kept without identity. A second erasure is refused; audited.',
    input: z.strictObject({ cusercode: idString }),
    output: z.null(),
    ids: { cusercode: 'person' },
  }),
  'as.m.cuser.getRetention': action({
    access: ARCHIVE_READ,
    kind: 'json',
    op: 'read',
    summary: 'The retention period of the caller’s institution (or one in scope): months without activity after which a person is anonymised; 0 (the default) is off.',
    input: z.strictObject({ musercode: idString.optional() }),
    output: personRetention.extend({ musercode: z.string() }),
    ids: { musercode: 'muser' },
  }),
  'as.m.cuser.updateRetention': action({
    access: RETENTION_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Set the retention period of the caller’s institution (or one in scope), in months (0: off); a daily job anonymises persons with no assessment, case, follow-up or edit in that time. Audited with the old and new values.',
    input: z.strictObject({ musercode: idString.optional(), ...personRetention.shape }),
    output: z.null(),
    ids: { musercode: 'muser' },
    changes: 'settings',
  }),
};
