import { z } from 'zod';
import { action, base64File, codes, idString, requiredText } from '../catalogue-kit.js';
import { signaturePng } from './exam.js';
import { PERSON_READ, PERSON_WRITE, ROSTER_MAX_BASE64 } from './persons.js';
import { TEAM_WRITE } from './tasks.js';

/**
 * Consent (issue 30 §4; PIPL Arts. 14, 28, 29, 31). Health data and all data of a child under 14
 * are sensitive personal information: the respondent agrees separately to the institution's notice
 * (its purpose, in both languages, versioned) before answering, once per notice version; a child
 * under 14 (by birth date, or a student of a primary or junior-middle grade) also needs a guardian's
 * consent on record, given on the phone (name, relation, signature) or recorded by the institution
 * for a class with a consent sheet. Withdrawn consent stops further assessments of the person.
 *
 * A person's consent state: `given` (agreed to the current notice, and a guardian consented when
 * needed), `pending` (not yet agreed to the current notice: asked on the phone), `guardianmissing`
 * (under 14 without a guardian's consent: nothing can be answered), `withdrawn`.
 */

/** Where an institution edits its notice: the respondent entry settings (service pages). */
const NOTICE = codes('00021', '00022');
/** Who sees a person's consents: whoever opens the person (archives, group-assessment pages). */
const PERSON_CONSENT = codes(...(PERSON_READ as { codes: string[] }).codes, '00042', '00041');

export const consentState = z.enum(['given', 'pending', 'guardianmissing', 'withdrawn']);
export type ConsentState = z.infer<typeof consentState>;
export const guardianRelation = z.enum(['father', 'mother', 'grandparent', 'other']);

export const consentNotice = z.object({
  musercode: z.string(),
  /** 0: no notice written yet; the platform's default text applies. */
  version: z.int(),
  zh: z.string(),
  en: z.string(),
  isdefault: z.boolean(),
  updatedat: z.string().nullable(),
});

/** One record of a person's consents, newest first. */
export const consentRecord = z.object({
  consentid: z.string(),
  /** notice: the person agreed to a notice version; guardian: a guardian consented; withdrawal; renewal (consented again after a withdrawal). */
  kind: z.enum(['notice', 'guardian', 'withdrawal', 'renewal']),
  /** phone: on the respondent page; sheet: the institution's class consent sheet; staff: the console. */
  via: z.enum(['phone', 'sheet', 'staff']),
  noticeversion: z.int().nullable(),
  /** SHA-256 of the notice text shown (zh and en). */
  noticehash: z.string().nullable(),
  assesscode: z.string().nullable(),
  guardianname: z.string().nullable(),
  relation: z.string().nullable(),
  /** Where the guardian's signature is served (null when none, or removed by erasure). */
  signatureurl: z.string().nullable(),
  teamname: z.string().nullable(),
  reason: z.string().nullable(),
  /** Who recorded it on the console (withdrawal, consent sheet). */
  recordedby: z.string().nullable(),
  /** That staff user's or account's name, as the console and the person's record show it. */
  recordedbyname: z.string().nullable(),
  at: z.string(),
});

export const personConsent = z.object({
  cusercode: z.string(),
  state: consentState,
  minor: z.boolean(),
  /** Why the person counts as under 14: their birth date, or their class's grade. */
  minorby: z.enum(['birthdate', 'grade', '']),
  noticeversion: z.int(),
  records: z.array(consentRecord),
});

const noticeText = (max: number) => z.string().trim().min(20).max(max);

export const consentActions = {
  'as.m.consent.getNotice': action({
    access: NOTICE,
    kind: 'json',
    op: 'read',
    summary: 'The current notice on sensitive personal information of an institution in scope (version 0: the default text).',
    input: z.strictObject({ musercode: idString }),
    output: consentNotice,
    ids: { musercode: 'muser' },
  }),
  'as.m.consent.saveNotice': action({
    access: NOTICE,
    kind: 'json',
    op: 'write',
    summary:
      'Write a new version of an institution’s notice (purpose and use of sensitive personal information, Chinese and English). Respondents agree again to a new version; an unchanged text keeps its version.',
    input: z.strictObject({ musercode: idString, zh: noticeText(4000), en: noticeText(8000) }),
    output: z.object({ version: z.int() }),
    ids: { musercode: 'muser' },
    changes: 'settings',
  }),
  'as.m.consent.getPersonConsent': action({
    access: PERSON_CONSENT,
    kind: 'json',
    op: 'read',
    summary: 'A person’s consent state (under 14 or not, and why) and every consent record, newest first.',
    input: z.strictObject({ cusercode: idString }),
    output: personConsent,
    ids: { cusercode: 'person' },
  }),
  'as.m.consent.withdrawConsent': action({
    access: PERSON_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Record that a person (or their guardian) withdrew consent: every further assessment step of the person is refused; existing reports stay. Refused when already withdrawn.',
    input: z.strictObject({ cusercode: idString, reason: requiredText(500), byguardian: z.boolean().default(false) }),
    output: z.null(),
    ids: { cusercode: 'person' },
  }),
  'as.m.consent.renewConsent': action({
    access: PERSON_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Record that a person whose consent was withdrawn consents again (PIPL: consent may be renewed): the person is then asked the current notice again on the phone, and a guardian again for a child under 14; a later withdrawal is possible. Refused unless withdrawn.',
    input: z.strictObject({ cusercode: idString, reason: requiredText(500) }),
    output: z.null(),
    ids: { cusercode: 'person' },
  }),
  'as.m.consent.getConsentSheet': action({
    access: TEAM_WRITE,
    kind: 'download',
    op: 'export',
    summary: 'The consent sheet of a class (.xlsx): its roster by number, with a column to mark who consented and the guardian’s name and relation.',
    input: z.strictObject({ teamid: idString }),
    output: z.unknown(),
    ids: { teamid: 'team' },
  }),
  'as.m.consent.importConsentSheet': action({
    access: TEAM_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Record the guardians’ consent of a class from its filled consent sheet (.xlsx, base64): every row must name a member of the roster and say yes or no; with any bad row nothing is recorded (badImportFile, naming the rows). Members already with a guardian’s consent keep it.',
    input: z.strictObject({
      teamid: idString,
      filename: z.string().trim().min(1).max(200),
      content: base64File(ROSTER_MAX_BASE64),
    }),
    output: z.object({ total: z.int(), consented: z.int(), recorded: z.int(), notconsented: z.int() }),
    ids: { teamid: 'team' },
    maxBodyBytes: ROSTER_MAX_BASE64 + 4096,
  }),
  'as.c.exam.agreeNotice': action({
    access: 'respondent',
    kind: 'json',
    op: 'write',
    summary: 'The respondent agrees separately to the institution’s notice on sensitive personal information (the version shown; refused when it changed since).',
    input: z.strictObject({ version: z.int().min(0) }),
    output: z.null(),
  }),
  'as.c.exam.giveGuardianConsent': action({
    access: 'respondent',
    kind: 'json',
    op: 'write',
    summary:
      'A guardian consents on the phone for a respondent under 14: their name, relation and signature (PNG, at most 200 KB), for the notice version shown.',
    input: z.strictObject({ version: z.int().min(0), guardianname: requiredText(50), relation: guardianRelation, signature: signaturePng }),
    output: z.null(),
  }),
};
