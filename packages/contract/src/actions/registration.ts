import { z } from 'zod';
import { personName } from '../person-name.js';
import { action, codes, idString, pageFields, pageOf, text } from '../catalogue-kit.js';
import { localText } from '../scales/definition.js';
import { respondentArchiveAnswer, respondentArchiveForm } from './exam.js';
import type { EnumItem } from '../enums.js';

/**
 * Consultation registration (SPEC §2 /registration, registrationForm 00016): a person asks for a
 * consultation on the institution's registration form (form type 03, built in the scale editor),
 * on the respondent page through the institution's QR entry or filled in by staff for a person.
 * Staff list the registrations with their answers, move them through their states and turn one
 * into a case of the warnings domain.
 *
 * A registration from the respondent page names no person until staff match one (when turning
 * it into a case); the name and phone the respondent gave are kept with it.
 */

const REGISTRATION = codes('00016');

/** new → inprogress → case (turned into a case) or closed. */
export const registrationState = z.enum(['new', 'inprogress', 'case', 'closed']);
export type RegistrationState = z.infer<typeof registrationState>;
/** Who entered it: the person on the respondent page, or staff for the person. */
export const registrationSource = z.enum(['respondent', 'staff']);

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const phone = z
  .string()
  .trim()
  .regex(/^1[3-9][0-9]{9}$/, 'a mainland mobile number of 11 digits');
/** The token of an institution's QR entry link (`/r/<entrytoken>`). */
const entrytoken = z
  .string()
  .trim()
  .min(16)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

export const registrationRow = z.object({
  regid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  /** '' until a person is matched (a respondent registration before it becomes a case). */
  cusercode: z.string(),
  /** The matched person's name, else the name the respondent gave. */
  realname: z.string(),
  /** Masked (138****5678); '' when none was given. */
  phone: z.string(),
  formcode: z.string(),
  formname: z.string(),
  version: z.int(),
  state: registrationState,
  source: registrationSource,
  /** The staff user who entered it ('' from the respondent page). */
  createdby: z.string(),
  /** The case it was turned into, else ''. */
  caseid: z.string(),
  createdat: z.string(),
  updatedat: z.string(),
});
export type RegistrationRow = z.infer<typeof registrationRow>;

/** One answer in words, read against the form version it was answered on. */
export const registrationAnswer = z.object({
  no: z.int(),
  question: localText(1000),
  type: z.int(),
  /** The chosen options' texts or the fill-in (a region code as its name); '' when unanswered. */
  answer: z.string(),
});

export const registrationDetail = registrationRow.extend({
  /** Unmasked: the detail is an audited read. */
  phone: z.string(),
  answers: z.array(registrationAnswer),
});
export type RegistrationDetail = z.infer<typeof registrationDetail>;

/** A registration form (type 03) an institution may use: its own, its provider's or a built-in one. */
export const registrationFormBrief = z.object({ formcode: z.string(), formname: z.string(), version: z.int(), builtin: z.boolean() });

/** A registration form as it is filled in: questions and options only. */
export const registrationFormDetail = respondentArchiveForm.omit({ saved: true });

export const registrationActions = {
  'as.m.registration.getRegistrationPage': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'list',
    summary:
      'Registrations in the caller’s scope, newest first; filters: institution, form, state, date range (China dates), name (the matched person’s or the one given). Phones masked.',
    input: z.strictObject({
      musercode: z.union([idString, z.literal('')]).optional(),
      formcode: z.union([idString, z.literal('')]).optional(),
      state: z.union([registrationState, z.literal('')]).optional(),
      startdate: isoDate.optional(),
      enddate: isoDate.optional(),
      realname: text(50).optional(),
      ...pageFields,
    }),
    output: pageOf(registrationRow),
    ids: { musercode: 'muser', formcode: 'form' },
  }),
  'as.m.registration.getRegistration': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'read',
    summary: 'One registration in scope with its answers in words (read against the version answered) and the unmasked phone. Audited.',
    input: z.strictObject({ regid: idString }),
    output: registrationDetail,
    ids: { regid: 'registration' },
  }),
  'as.m.registration.getRegistrationForms': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'list',
    summary:
      'The enabled registration forms (type 03) an institution in scope may use (the caller’s own without musercode): its own first, then its provider’s, then built-in.',
    input: z.strictObject({ musercode: idString.optional() }),
    output: z.array(registrationFormBrief),
    ids: { musercode: 'muser' },
  }),
  'as.m.registration.getRegistrationForm': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'read',
    summary: 'A registration form (type 03) the caller may use, in its current version, to fill in for a person.',
    input: z.strictObject({ formcode: idString }),
    output: registrationFormDetail,
    ids: { formcode: 'form' },
  }),
  'as.m.registration.insertRegistration': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'write',
    summary:
      'Staff fill in a registration for a person in scope on a registration form (type 03) the person’s institution may use. Answers are checked against the form (required questions, types, ranges); a bad answer stores nothing.',
    input: z.strictObject({ cusercode: idString, formcode: idString, answers: z.array(respondentArchiveAnswer).max(200) }),
    output: z.object({ regid: z.string() }),
    ids: { cusercode: 'person', formcode: 'form' },
  }),
  'as.m.registration.updateRegistrationState': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'write',
    summary: 'Move a registration in scope to new, in progress or closed. One turned into a case keeps that state (conflict).',
    input: z.strictObject({ regid: idString, state: z.enum(['new', 'inprogress', 'closed']) }),
    output: z.null(),
    ids: { regid: 'registration' },
  }),
  'as.m.registration.turnIntoCase': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'write',
    summary:
      'Turn a registration in scope into a case (opens the person’s case or joins the open one, warnings domain). A registration without a person needs cusercode: a person of its institution, matched to it. Twice is a conflict.',
    input: z.strictObject({ regid: idString, cusercode: idString.optional() }),
    output: z.object({ caseid: z.string() }),
    ids: { regid: 'registration', cusercode: 'person' },
  }),

  'as.m.registration.getPersonOptions': action({
    access: REGISTRATION,
    kind: 'json',
    op: 'list',
    summary:
      'Up to 20 persons in scope whose name contains realname (of one institution with musercode): the picker for filling in for a person and matching a registration.',
    input: z.strictObject({ realname: text(50), musercode: idString.optional() }),
    output: z.array(
      z.object({
        cusercode: z.string(),
        realname: z.string(),
        gender: z.string(),
        birthdate: z.string().nullable(),
        musercode: z.string(),
        insname: z.string(),
      }),
    ),
    ids: { musercode: 'muser' },
  }),

  // ---------- respondent channel ----------
  'as.c.registration.getForm': action({
    access: 'public',
    kind: 'json',
    op: 'read',
    summary:
      'The registration form (type 03) an institution’s QR entry offers for requesting a consultation, or form null when it has none; with the institution’s name and hotline. Rate-limited per address.',
    input: z.strictObject({ entrytoken }),
    output: z.object({ insname: z.string(), title: z.string(), hotline: z.string(), form: registrationFormDetail.nullable() }),
  }),
  'as.c.registration.submit': action({
    access: 'public',
    kind: 'json',
    op: 'write',
    summary:
      'A person requests a consultation through an institution’s QR entry: name, phone and the answers to its registration form, checked against the form (required questions, types); a bad answer stores nothing. Rate-limited per address.',
    input: z.strictObject({
      entrytoken,
      formcode: idString,
      realname: personName,
      phone,
      answers: z.array(respondentArchiveAnswer).max(200),
    }),
    output: z.object({ regid: z.string(), hotline: z.string() }),
    ids: { formcode: 'form' },
  }),
};

/** Labels of the registration states and sources (console tags and filters). */
export const RegistrationStates: EnumItem<RegistrationState>[] = [
  { value: 'new', zh: '新登记', en: 'New' },
  { value: 'inprogress', zh: '处理中', en: 'In progress' },
  { value: 'case', zh: '已转个案', en: 'Turned into a case' },
  { value: 'closed', zh: '已关闭', en: 'Closed' },
];
export const RegistrationSources: EnumItem<'respondent' | 'staff'>[] = [
  { value: 'respondent', zh: '本人扫码', en: 'Self (QR code)' },
  { value: 'staff', zh: '工作人员代填', en: 'Staff for the person' },
];
