import { z } from 'zod';
import { action, codes, idString, pageFields, pageOf, text } from '../catalogue-kit.js';

/**
 * The AI individual report (SPEC §2 /empower/individualReport, menu 001802,
 * `as.m.report.getAsai1UserReportPageList`): a written report per person that combines all their
 * current results (several forms, the trend, the warnings) into findings, risk and next steps, for
 * staff and for the person (DESIGN §9 "Writers of reports").
 *
 * Two writers stand behind one interface: `rules` (built in, deterministic, offline; the default)
 * and `llm` (any OpenAI-compatible endpoint configured on the server). The LLM receives a
 * de-identified profile only: no name, phone, ID number, free-text answer or identifying code.
 *
 * A written report's life: queued (a background job is waiting) → writing (the job runs) → draft
 * (written; staff may correct it) → approved (the respondent sees the person-facing part). A writer
 * failure leaves it `failed` with the error and a retry, never a half-written text. Approval can be
 * withdrawn (back to draft). Every text records its writer, model and time; edits who and when.
 */

const ACCESS = codes('001802');

const appid = z.string().regex(/^[0-9]{9}$/);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

/** The state of a person's latest written report; `none` when none was ever asked for. */
export const writtenState = z.enum(['none', 'queued', 'writing', 'failed', 'draft', 'approved']);
export type WrittenState = z.infer<typeof writtenState>;

/** Who wrote it: the built-in rule-based writer or the configured LLM. */
export const writerKind = z.enum(['rules', 'llm']);
export type WriterKind = z.infer<typeof writerKind>;

/** The written report's overall risk, from the results (and, for the LLM writer, its reading of them). */
export const writtenRiskLevel = z.enum(['none', 'low', 'moderate', 'high', 'urgent']);
export type RiskLevel = z.infer<typeof writtenRiskLevel>;

const paragraph = z.string().trim().min(1).max(2000);
const step = z.string().trim().min(1).max(500);

/** The text of a written report, in one language (`lang`). */
export const writtenSections = z.strictObject({
  /** For staff: a few sentences over all the results. */
  summary: paragraph,
  /** For staff: one finding per line (a form's result, a trend, a warning). */
  findings: z.array(paragraph).max(30),
  risk: z.strictObject({ level: writtenRiskLevel, text: paragraph }),
  /** Concrete next steps for staff (referral, follow-up, re-assessment). */
  staffsteps: z.array(step).max(20),
  /** For the person, in plain language: what the results say (shown once approved). */
  personmessage: paragraph,
  /** Concrete next steps for the person. */
  personsteps: z.array(step).max(20),
});
export type WrittenSections = z.infer<typeof writtenSections>;

const reportLang = z.enum(['zh-CN', 'en-US']);

export const writtenListRow = z.object({
  cusercode: z.string(),
  realname: z.string(),
  gender: z.string(),
  appid: z.string(),
  appname: z.string(),
  musercode: z.string(),
  insname: z.string(),
  /** The person's current (not voided) reports, and the newest one's time. */
  reportcount: z.int(),
  lastreportat: z.string().nullable(),
  /** The latest written report, or null with state `none`. */
  writtenid: z.string().nullable(),
  state: writtenState,
  writer: writerKind.nullable(),
  model: z.string().nullable(),
  /** 0–100 while queued or writing. */
  progress: z.int(),
  /** Why the last attempt failed (state failed, or a retry is pending). */
  error: z.string().nullable(),
  /** When it was asked for, written, approved. */
  createdat: z.string().nullable(),
  writtenat: z.string().nullable(),
  approvedat: z.string().nullable(),
  /** 1 when results arrived after the written report was asked for (it may be out of date). */
  stale: z.int(),
});
export type WrittenListRow = z.infer<typeof writtenListRow>;

export const writtenSource = z.object({ reportid: z.string(), formname: z.string(), createdat: z.string() });

export const writtenReport = z.object({
  writtenid: z.string(),
  cusercode: z.string(),
  realname: z.string(),
  musercode: z.string(),
  insname: z.string(),
  state: writtenState.exclude(['none']),
  writer: writerKind,
  /** The model name for the LLM writer; the rule set's version for the rule-based writer. */
  model: z.string(),
  lang: reportLang,
  /** Null until written (queued, writing, failed). */
  sections: writtenSections.nullable(),
  progress: z.int(),
  error: z.string().nullable(),
  /** The reports it was written from. */
  sources: z.array(writtenSource),
  createdat: z.string(),
  createdby: z.string(),
  writtenat: z.string().nullable(),
  editedat: z.string().nullable(),
  editedby: z.string().nullable(),
  approvedat: z.string().nullable(),
  approvedby: z.string().nullable(),
  /** Who requested, edited and approved it, by name (a staff user's, else the account's). */
  createdbyname: z.string(),
  editedbyname: z.string(),
  approvedbyname: z.string(),
});
export type WrittenReport = z.infer<typeof writtenReport>;

/** What a respondent sees of the latest approved written report (`as.c.exam.getResult`). */
export const respondentWritten = z.object({
  message: z.string(),
  steps: z.array(z.string()),
  lang: reportLang,
  approvedat: z.string(),
});
export type RespondentWritten = z.infer<typeof respondentWritten>;

export const writtenReportActions = {
  'as.m.report.getAsai1UserReportPageList': action({
    access: ACCESS,
    kind: 'json',
    op: 'list',
    summary:
      'Persons in the caller’s scope who have reports, with their latest written report’s state (none/queued/writing/failed/draft/approved), writer, model, times and progress; newest results first. Filters: institution, population app, state, name, date range of the latest result (China dates). Names as in the person list; no phone or ID number.',
    input: z.strictObject({
      musercode: z.union([idString, z.literal('')]).optional(),
      appid: z.union([appid, z.literal('')]).optional(),
      state: writtenState.optional(),
      realname: text(50).optional(),
      startdate: isoDate.optional(),
      enddate: isoDate.optional(),
      ...pageFields,
    }),
    output: pageOf(writtenListRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.report.getAsai1Writers': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary:
      'The writers this server offers: the rule-based writer always; the LLM writer and its model when configured (AI_REPORT_BASE_URL, AI_REPORT_MODEL).',
    input: z.strictObject({}),
    output: z.object({ default: writerKind, writers: z.array(z.object({ writer: writerKind, model: z.string() })) }),
  }),
  'as.m.report.generateAsai1UserReport': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary:
      'Ask for a written report of each given person in scope (at most 500): each is queued as background work. A person with no current report, or whose written report is already queued or being written, is skipped and named. Unknown writer or an LLM not configured: refused.',
    input: z.strictObject({
      cusercodes: z.array(idString).min(1).max(500),
      writer: writerKind.optional(),
      lang: reportLang.optional(),
    }),
    output: z.object({
      writtenids: z.array(z.string()),
      skipped: z.array(z.object({ cusercode: z.string(), reason: z.enum(['noreports', 'inprogress']) })),
    }),
    ids: { cusercodes: 'person' },
  }),
  'as.m.report.getAsai1BatchProgress': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary:
      'Progress of a batch of written reports (the ids generate answered): how many are queued, writing, written (draft or approved) and failed, and the overall percent.',
    input: z.strictObject({ writtenids: z.array(idString).min(1).max(500) }),
    output: z.object({ total: z.int(), queued: z.int(), writing: z.int(), written: z.int(), failed: z.int(), percent: z.int() }),
    ids: { writtenids: 'writtenreport' },
  }),
  'as.m.report.getAsai1UserReport': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary:
      'One written report in scope: its sections, writer, model, language, times, who edited and approved it, and the reports it was written from. Audited.',
    input: z.strictObject({ writtenid: idString }),
    output: writtenReport,
    ids: { writtenid: 'writtenreport' },
  }),
  'as.m.report.getAsai1UserReportHistory': action({
    access: ACCESS,
    kind: 'json',
    op: 'list',
    summary: 'Every written report of a person in scope, newest first (state, writer, model, times), without their text.',
    input: z.strictObject({ cusercode: idString }),
    output: z.array(writtenReport.omit({ sections: true, sources: true })),
    ids: { cusercode: 'person' },
  }),
  'as.m.report.updateAsai1UserReport': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary:
      'Staff correct the text of a draft written report before approving it (who and when are kept; writer and model stay). Only a draft can be edited.',
    input: z.strictObject({ writtenid: idString, sections: writtenSections }),
    output: z.null(),
    ids: { writtenid: 'writtenreport' },
  }),
  'as.m.report.approveAsai1UserReport': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary: 'Approve a draft written report: from now the respondent sees its person-facing part. Only a draft can be approved.',
    input: z.strictObject({ writtenid: idString }),
    output: z.null(),
    ids: { writtenid: 'writtenreport' },
  }),
  'as.m.report.withdrawAsai1UserReport': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary: 'Withdraw the approval of a written report (back to draft): the respondent no longer sees it.',
    input: z.strictObject({ writtenid: idString }),
    output: z.null(),
    ids: { writtenid: 'writtenreport' },
  }),
  'as.m.report.retryAsai1UserReport': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary:
      'Queue a failed written report again (same person, writer and language; written from the results as they are now). Only a failed one can be retried.',
    input: z.strictObject({ writtenid: idString }),
    output: z.null(),
    ids: { writtenid: 'writtenreport' },
  }),
};
