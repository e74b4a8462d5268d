import { z } from 'zod';
import { personName } from '../person-name.js';
import { action, codes, idString } from '../catalogue-kit.js';
import { answerInput, localText, longText, questionDefinition } from '../scales/definition.js';
import { respondentWritten } from './written-reports.js';

/**
 * Giving assessments (SPEC §2 /empower and /archives, §7
 * `as.m.user.insertCUserAssessCode`, `as.m.cuser.getCUserPlan`, `deleteCUserPlan`,
 * and the respondent channel `as.c.*` (DESIGN §9). Reading reports: actions/reports.ts.
 *
 * An assessment code (`assesscode`) is a one-time code for one person and one plan (optionally
 * one stage of it): 10 characters of an alphabet without look-alikes (no 0/O, 1/I/L). A plan
 * authorised to the institution with a count uses one of that count per code.
 *
 * Respondent actions (`as.c.*`): `as.c.exam.start` (with a code) and `as.c.exam.enter` (with an
 * institution's QR entry token) are public and answer a respondent token; every other `as.c.*`
 * action takes that token in the `token` header and accepts nothing else, and no `as.m.*` action
 * accepts a respondent token.
 */

/** Who gives assessments and reads their reports: the /empower pages and the archives. */
const GIVE = codes('00018', '0000000011', '0000000022', '0000000033', '0000000044', '001801');

/** The alphabet of assessment codes: upper-case letters and digits without 0 O 1 I L. */
export const ASSESS_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const ASSESS_CODE_LENGTH = 10;
/** What a respondent types: letters and digits, case and spaces forgiven. */
export const assessCodeInput = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .transform((s) => s.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{8,20}$/, 'an assessment code has 8 to 20 letters and digits'));

const appid = z.string().regex(/^[0-9]{9}$/);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const gender = z.enum(['01', '02']);

/** State of a given assessment: issued (not opened), started (opened, forms left), finished. */
export const assessStatus = z.enum(['issued', 'started', 'finished']);

export const givenCode = z.object({
  assesscode: z.string(),
  cusercode: z.string(),
  /** Path of the respondent page for this code (`/a/<assesscode>`), for the link and QR code. */
  url: z.string(),
});

export const cuserPlanRow = z.object({
  assesscode: z.string(),
  cusercode: z.string(),
  musercode: z.string(),
  /** '' for an assessment a respondent started through the institution's QR entry (one stage, no plan). */
  plancode: z.string(),
  planname: z.string(),
  /** '' when the whole plan was given. */
  stagecode: z.string(),
  stagename: z.string(),
  status: assessStatus,
  formcount: z.int(),
  donecount: z.int(),
  url: z.string(),
  createdat: z.string(),
  finishedat: z.string().nullable(),
});

// ---------- respondent side ----------

/** One form of the respondent's plan as the respondent page lists it. */
export const respondentForm = z.object({
  formcode: z.string(),
  formname: z.string(),
  /** 01 self-assessment, 04 other-rated (SPEC §3). */
  formtype: z.string(),
  questioncount: z.int(),
  /** todo: not submitted; done: submitted (reportid set). */
  status: z.enum(['todo', 'done']),
  /** Answers saved so far (resume). */
  savedcount: z.int(),
  reportid: z.string().nullable(),
});

/**
 * Where the respondent stands with the institution's notice on sensitive personal information:
 * the notice (its version), whether the person agreed to that version, whether they are under 14
 * and a guardian's consent is on record, and whether consent was withdrawn (no assessment then).
 */
export const respondentPrivacy = z.object({
  notice: localText(8000),
  version: z.int(),
  agreed: z.boolean(),
  minor: z.boolean(),
  guardian: z.boolean(),
  withdrawn: z.boolean(),
});

/** Everything the respondent page needs to decide its next step (start and resume). */
export const respondentSession = z.object({
  assesscode: z.string(),
  insname: z.string(),
  planname: z.string(),
  appid: z.string(),
  realname: z.string(),
  consent: z.object({ text: longText(8000), signed: z.boolean() }),
  /** The separate consent to process sensitive personal information (issue 30 §4; PIPL Arts. 14, 29, 31). */
  privacy: respondentPrivacy,
  /** The app's user-archive form (form type 02), if it has one; done once answered. */
  archive: z.object({ formcode: z.string(), formname: z.string(), done: z.boolean() }).nullable(),
  forms: z.array(respondentForm),
  finished: z.boolean(),
});
export type RespondentSession = z.infer<typeof respondentSession>;

/** A form as a respondent answers it: questions and options only (no bands, no formulas). */
export const respondentFormDetail = z.object({
  formcode: z.string(),
  formname: localText(100),
  formtype: z.string(),
  version: z.int(),
  instructions: longText(),
  questions: z.array(
    questionDefinition
      .pick({ no: true, type: true, inputtype: true, required: true, text: true, range: true })
      .extend({ options: z.array(z.object({ text: localText(500) })) }),
  ),
  /** Answers saved so far, in the submit format. */
  saved: z.array(answerInput),
});

/**
 * One answer of the archive form, as the person's archive keeps it: single choice the option
 * position, multiple choice the positions, fill-in by input type (text, number, date, region code…).
 */
export const respondentArchiveAnswer = z.strictObject({
  no: z.int().min(1).max(1000),
  value: z.union([z.string().trim().max(500), z.number().refine(Number.isFinite), z.array(z.int().min(1).max(50)).max(50)]),
});

/** The archive form as the respondent fills it, with the person's archive answers so far. */
export const respondentArchiveForm = respondentFormDetail.omit({ saved: true }).extend({ saved: z.array(respondentArchiveAnswer) });

/** A respondent's result: plain language when the institution allows it; crisis text always when critical. */
export const respondentResult = z.object({
  reportid: z.string(),
  formname: localText(100),
  /** False: the institution shows no result to respondents (only the crisis text, when raised). */
  shown: z.boolean(),
  mentalstate: z.int().nullable(),
  indicators: z.array(
    z.object({
      name: localText(100),
      score: z.number(),
      level: z.int().nullable(),
      colour: z.string().nullable(),
      label: localText(100).nullable(),
      interpretation: longText().nullable(),
      advice: longText().nullable(),
    }),
  ),
  /** The institution's crisis text when a critical answer (or a warning band) was given; else null. */
  crisis: longText(4000).nullable(),
  /** The person-facing part of the person's latest staff-approved AI individual report; null when none is approved (optional for older clients and fixtures). */
  written: respondentWritten.nullable().optional(),
});

/** A consent signature: a PNG as a data URL or bare base64, at most about 200 KB of image. */
export const MAX_SIGNATURE_BYTES = 200 * 1024;
export const signaturePng = z
  .string()
  .max(Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 64)
  .regex(/^(data:image\/png;base64,)?[A-Za-z0-9+/]+={0,2}$/, 'a PNG image in base64');

const RESPONDENT = 'respondent' as const;
/** The token of an institution's QR entry link (`/r/<entrytoken>`). */
const entrytoken = z
  .string()
  .trim()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export const examActions = {
  'as.m.user.insertCUserAssessCode': action({
    access: GIVE,
    kind: 'json',
    op: 'write',
    summary:
      'Give a plan (or one stage of it) to a person in scope: a new one-time assessment code. A plan authorised to the institution uses one of its count per code; an expired or used-up authorisation is refused.',
    input: z.strictObject({ cusercode: idString, plancode: idString, stagecode: idString.optional() }),
    output: givenCode,
    ids: { cusercode: 'person', plancode: 'plan', stagecode: 'stage' },
  }),
  'as.m.user.insertCUserAssessCodes': action({
    access: GIVE,
    kind: 'json',
    op: 'write',
    summary: 'Give a plan (or one stage) to many selected persons in scope at once: all or nothing, one code per person.',
    input: z.strictObject({ cusercodes: z.array(idString).min(1).max(500), plancode: idString, stagecode: idString.optional() }),
    output: z.object({ codes: z.array(givenCode) }),
    ids: { cusercodes: 'person', plancode: 'plan', stagecode: 'stage' },
  }),
  'as.m.cuser.getCUserPlan': action({
    access: GIVE,
    kind: 'json',
    op: 'list',
    summary: 'The assessments given to a person in scope (codes, plan, stage, progress), newest first.',
    input: z.strictObject({ cusercode: idString }),
    output: z.array(cuserPlanRow),
    ids: { cusercode: 'person' },
  }),
  'as.m.cuser.deleteCUserPlan': action({
    access: GIVE,
    kind: 'json',
    op: 'write',
    summary:
      'Withdraw a given assessment that has no report yet (its code stops working; an authorised count is given back). Refused (conflict) once a form is submitted.',
    input: z.strictObject({ assesscode: idString }),
    output: z.null(),
    ids: { assesscode: 'assesscode' },
  }),
  // ---------- respondent channel ----------
  'as.c.exam.start': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary:
      'A respondent opens an assessment code: answers a respondent token (for the as.c.* actions only) and where the respondent stands. Rate-limited per address.',
    input: z.strictObject({ assesscode: assessCodeInput }),
    output: respondentSession.extend({ token: z.string() }),
    ids: { assesscode: 'assesscode' },
  }),
  'as.c.exam.getEntry': action({
    access: 'public',
    kind: 'json',
    op: 'read',
    summary:
      'What an institution’s QR entry offers (title, welcome, apps and stages to choose from), before registering. Rate-limited per address.',
    input: z.strictObject({ entrytoken }),
    output: z.object({
      insname: z.string(),
      title: z.string(),
      welcome: z.string(),
      logourl: z.string(),
      apps: z.array(
        z.object({ appid: z.string(), appname: z.string(), stages: z.array(z.object({ stagecode: z.string(), stagename: z.string() })) }),
      ),
    }),
  }),
  'as.c.exam.enter': action({
    access: 'public',
    kind: 'json',
    op: 'auth',
    summary:
      'A respondent arrives through an institution’s QR entry token, chooses an offered app and stage, and registers as a new person of that institution: answers a respondent token and the new assessment. Rate-limited per address.',
    input: z.strictObject({
      entrytoken,
      appid,
      stagecode: idString,
      realname: personName,
      gender,
      birthdate: isoDate.optional(),
      phone: z
        .string()
        .trim()
        .regex(/^1[3-9][0-9]{9}$/)
        .optional(),
    }),
    output: respondentSession.extend({ token: z.string() }),
    ids: { stagecode: 'stage' },
  }),
  'as.c.exam.getSession': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'read',
    summary: 'Where the respondent stands (resume after closing the phone).',
    input: z.strictObject({}),
    output: respondentSession,
  }),
  'as.c.exam.sign': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'write',
    summary: 'The respondent agrees to the consent and signs it (PNG from the signature pad, at most 200 KB).',
    input: z.strictObject({ signature: signaturePng }),
    output: z.null(),
  }),
  'as.c.exam.getArchiveForm': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'read',
    summary: 'The app’s user-archive form (form type 02) with the answers already given.',
    input: z.strictObject({}),
    output: respondentArchiveForm.nullable(),
  }),
  'as.c.exam.saveArchive': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'write',
    summary: 'The respondent’s answers to the archive form (stored in the person’s archive).',
    input: z.strictObject({ answers: z.array(respondentArchiveAnswer).max(200) }),
    output: z.null(),
  }),
  'as.c.exam.getForm': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'read',
    summary: 'A form of the respondent’s plan in its current version: questions, options and the answers saved so far.',
    input: z.strictObject({ formcode: idString }),
    output: respondentFormDetail,
    ids: { formcode: 'form' },
  }),
  'as.c.exam.saveProgress': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'write',
    summary: 'Save answers of a form in progress (merged by question number), so a respondent can resume.',
    input: z.strictObject({ formcode: idString, answers: z.array(answerInput).min(1).max(500) }),
    output: z.object({ savedcount: z.int() }),
    ids: { formcode: 'form' },
  }),
  'as.c.exam.submit': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'write',
    summary:
      'Submit a form of the plan: scored with the form’s current version and stored as a report. Missing or out-of-range answers, a form not in the plan and a second submission are refused and store nothing.',
    input: z.strictObject({ formcode: idString, answers: z.array(answerInput).max(1000) }),
    output: z.object({ reportid: z.string() }),
    ids: { formcode: 'form' },
  }),
  'as.c.exam.getResult': action({
    access: RESPONDENT,
    kind: 'json',
    op: 'read',
    summary:
      'The result of one of the respondent’s own reports: plain language if the institution allows; the crisis text whenever a critical answer was given.',
    input: z.strictObject({ reportid: idString }),
    output: respondentResult,
    ids: { reportid: 'report' },
  }),
};
