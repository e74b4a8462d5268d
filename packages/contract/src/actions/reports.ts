import { z } from 'zod';
import { action, codes, flag, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';
import { bandLevel, indicatorCode, indicatorResult, localText, scoreWarning } from '../scales/definition.js';
import { regionCode } from './accounts.js';
import { reliableChange, reportNorm } from './norms.js';
import { reportSection } from './report-templates.js';

/**
 * Reports as staff read them (SPEC §2 the report pages usersReport, usersReport2..4,
 * usersReportCustom, usersReport01 and the archives; §7 Exams/reports): the filtered list, one
 * report with its answers, earlier results and staff comments, the filter choices that follow the
 * forms actually used (the form dropdown too), stage counts, the PHQ-9 chart, showing or hiding a report to its respondent,
 * resetting a person's unfinished assessments, and the three .xlsx exports.
 *
 * Every action takes the same filter (`reportFilter`): what the list shows is what the exports
 * (and any other action taking the filter, such as a PDF archive) contain.
 */

/** Changing a report (comment, show/hide) or resetting attempts: the /empower report pages and the archives. */
const WRITE_CODES = [
  '00018',
  '0000000011',
  '0000000022',
  '0000000033',
  '0000000044',
  '001801',
  '001802',
  '000032',
  '00008',
  '00049',
  '000000001',
  '000000002',
  '000000003',
  '000000004',
];
const REPORT_WRITE = codes(...WRITE_CODES);
/** Reading reports: the same pages and report analysis (00012). */
const REPORTS = codes(...WRITE_CODES, '00012');
/** The anxious/depressed list is also read from the crisis warning page. */
const ANXIOUS_READ = codes(...WRITE_CODES, '00012', '00046');
const ARCHIVE_READ = codes('00008', '00049', '000000001', '000000002', '000000003', '000000004', '00018', '001801');

const appid = z.string().regex(/^[0-9]{9}$/);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const orEmpty = <T extends z.ZodType>(t: T) => z.union([t, z.literal('')]).optional();

/**
 * One indicator condition: the report's form has indicator `quotacode` and its result is at one
 * of `levels` (0 normal .. 4 severe). Several conditions must all hold (on the same report).
 */
export const quotaCondition = z.strictObject({
  formcode: idString,
  quotacode: indicatorCode,
  levels: z.array(bandLevel).min(1).max(5),
});

/**
 * The report filter, as fields to spread into an action's input (`z.strictObject({ ...reportFilterFields, ... })`).
 * Dates are China calendar dates (inclusive). An institution, stage, form or person of another
 * institution is "not found". `hidden` 0 keeps the reports shown to their respondents, 1 the hidden ones.
 */
export const reportFilterFields = {
  musercode: orEmpty(idString),
  appid: orEmpty(appid),
  plancode: orEmpty(idString),
  stagecode: orEmpty(idString),
  formcode: orEmpty(idString),
  cusercode: orEmpty(idString),
  /** Highest band level of the report (0-4). */
  level: bandLevel.optional(),
  mentalstate: z.int().min(0).max(4).optional(),
  warning: flag.optional(),
  hidden: flag.optional(),
  /**
   * 1: the reports the statistics count (shown to their respondent and not voided); 0: the others.
   * With `abnormal` (1: mental state 2, 3 or 4) the list holds what a statistics figure counts.
   */
  counted: flag.optional(),
  abnormal: flag.optional(),
  /** The region of the report's institution (the most specific code given). */
  provincecode: orEmpty(regionCode),
  citycode: orEmpty(regionCode),
  districtcode: orEmpty(regionCode),
  /** The person's gender (01 male, 02 female). */
  gender: z.union([z.enum(['01', '02']), z.literal('')]).optional(),
  /** Reports given through a class task: to this class (team), or to any class of this grade. */
  teamid: orEmpty(idString),
  grade: text(20).optional(),
  startdate: isoDate.optional(),
  enddate: isoDate.optional(),
  realname: text(50).optional(),
  quotas: z.array(quotaCondition).max(5).optional(),
};
export const reportFilter = z.strictObject(reportFilterFields);
export type ReportFilter = z.output<typeof reportFilter>;
/** The `ids` map of an action taking the report filter. */
export const reportFilterIds = {
  musercode: 'muser',
  plancode: 'plan',
  stagecode: 'stage',
  formcode: 'form',
  cusercode: 'person',
  teamid: 'team',
  'quotas.formcode': 'form',
} as const;

export const reportRow = z.object({
  reportid: z.string(),
  cusercode: z.string(),
  realname: z.string(),
  gender: z.string(),
  appid: z.string(),
  appname: z.string(),
  musercode: z.string(),
  insname: z.string(),
  plancode: z.string(),
  planname: z.string(),
  stagecode: z.string(),
  stagename: z.string(),
  formcode: z.string(),
  formname: z.string(),
  version: z.int(),
  /** Overall mental state 0-4 (SPEC §3). */
  mentalstate: z.int(),
  /** Highest band level of the report's indicators (0-4), null when no indicator has bands. */
  level: z.int().nullable(),
  colour: z.string().nullable(),
  /** 1 when scoring raised a warning (critical item or warning band). */
  warning: z.int(),
  voided: z.int(),
  /** 1 when the report is hidden from its respondent (as.c.exam.getResult shows nothing of it). */
  hidden: z.int(),
  createdat: z.string(),
});
export type ReportRow = z.infer<typeof reportRow>;

export const reportAnswer = z.object({
  no: z.int(),
  question: localText(1000),
  type: z.int(),
  /** Chosen option positions (from 1); empty for a fill-in. */
  options: z.array(z.int()),
  /** The chosen options' texts, or the fill-in text. */
  answer: z.string(),
  /** Item score after reversal; null when the question is not scored. */
  score: z.number().nullable(),
});

/** A staff comment on a report; comments are only added, so they are the report's history. */
export const reportComment = z.object({
  commentid: z.string(),
  comment: z.string(),
  /** The staff user (or account) who wrote it, and that person's name. */
  userid: z.string(),
  username: z.string(),
  createdat: z.string(),
});

/** One earlier (or this) result of the same person on the same form, oldest first. */
export const reportTrendPoint = z.object({
  reportid: z.string(),
  createdat: z.string(),
  version: z.int(),
  mentalstate: z.int(),
  indicators: z.array(z.object({ quotacode: z.string(), score: z.number(), level: z.int().nullable(), colour: z.string().nullable() })),
  /** Reliable change from the previous point (issue 31 §3); null for the first point or a form without a change rule. */
  change: reliableChange.nullable().optional(),
});

/**
 * How the custom report's template version lays the report out (issue 31 §4), as the printed
 * document does: the server decides it once (reports/custom/use.ts) for the print and the page.
 */
export const reportLayout = z.object({
  /** The template's name and version, shown small at the sign-off. */
  name: z.string(),
  version: z.int(),
  /** The report's title; empty: the standard title. */
  title: z.string(),
  /** The name in the header: the template's, else the institution's. */
  headername: z.string(),
  /** Where the template's logo is served, or null. */
  logo: z.string().nullable(),
  /** The sections shown, in this order, and only these. */
  sections: z.array(reportSection),
  /** The sign-off line; empty: the standard words. */
  signoff: z.string(),
});
export type ReportLayout = z.infer<typeof reportLayout>;

export const reportDetail = reportRow.extend({
  indicators: z.array(indicatorResult),
  warnings: z.array(scoreWarning),
  answers: z.array(reportAnswer),
  voidreason: localText(500).nullable(),
  /** The scoring convention the report was scored with (forms offering several, e.g. SDS/SAS); null otherwise. */
  convention: z.object({ code: z.string(), name: localText(200), source: z.string() }).nullish(),
  /** Staff comments, oldest first. */
  comments: z.array(reportComment),
  /** The person's results on this form up to and including this one, oldest first. */
  trend: z.array(reportTrendPoint),
  /** The factors against the form's default norm (issue 31 §2); null when the form has none. */
  norm: reportNorm.nullable().optional(),
  /**
   * The custom report's layout (issue 31 §4) when a template version renders the report; its band
   * texts are already the indicators' interpretations. Null or absent: the standard report.
   */
  layout: reportLayout.nullable().optional(),
});
export type ReportDetail = z.infer<typeof reportDetail>;

export const reportCountRow = z.object({
  cusercode: z.string(),
  total: z.int(),
  warnings: z.int(),
  lastat: z.string().nullable(),
});

/** Filter choices: the forms used by reports under the filter, their indicators and the levels reached. */
export const quotaFilterForm = z.object({
  formcode: z.string(),
  formname: z.string(),
  reports: z.int(),
  quotas: z.array(
    z.object({
      quotacode: z.string(),
      name: z.string(),
      levels: z.array(z.object({ level: z.int(), label: z.string(), colour: z.string(), reports: z.int() })),
    }),
  ),
});

export const stageCountRow = z.object({
  stagecode: z.string(),
  stagename: z.string(),
  /** Distinct persons with at least one report of the stage. */
  persons: z.int(),
  reports: z.int(),
  warnings: z.int(),
});

/** One report with its item answers (the item-data page); `items` follow the question order. */
export const examDataRow = reportRow.extend({
  items: z.array(z.object({ no: z.int(), options: z.array(z.int()), answer: z.string(), score: z.number().nullable() })),
});

/** Which indicators count as anxiety or depression: see the summary of getAnxiousDepressedReportPageList. */
export const moodKind = z.enum(['anxious', 'depressed']);

export const anxiousDepressedRow = reportRow.extend({
  /** The report's anxiety/depression indicators at or above the chosen level. */
  moods: z.array(
    z.object({ kind: moodKind, quotacode: z.string(), name: z.string(), score: z.number(), level: z.int(), colour: z.string().nullable() }),
  ),
});

export const phq9Point = z.object({
  reportid: z.string(),
  formcode: z.string(),
  createdat: z.string(),
  /** Total 0-27 and its level: 0 none, 1 mild, 2 moderate, 3 moderately severe, 4 severe (SPEC §3). */
  score: z.number(),
  level: z.int().nullable(),
  colour: z.string().nullable(),
  /** Item 9 (thoughts of death or self-harm), 0-3; null when not answered. */
  item9: z.number().nullable(),
});

const exportAction = (summary: string) =>
  action({
    access: REPORTS,
    kind: 'download',
    op: 'export',
    summary,
    input: reportFilter,
    output: z.unknown(),
    ids: { ...reportFilterIds },
  });

/** Narrowing fields of the filter-choice actions (no person or level: they describe the population). */
const scopeFields = {
  musercode: reportFilterFields.musercode,
  appid: reportFilterFields.appid,
  plancode: reportFilterFields.plancode,
  stagecode: reportFilterFields.stagecode,
};
const scopeIds = { musercode: 'muser', plancode: 'plan', stagecode: 'stage' } as const;

export const reportActions = {
  'as.m.exam.getCUserReportPageList': action({
    access: REPORTS,
    kind: 'json',
    op: 'list',
    summary:
      'Reports in the caller’s scope, newest first, under the report filter (institution, region, app, plan, stage, form, person, gender, class or grade, level, mental state, abnormal, warning, hidden, counted by the statistics, China date range, name, indicator levels).',
    input: z.strictObject({ ...reportFilterFields, ...pageFields }),
    output: pageOf(reportRow),
    ids: { ...reportFilterIds },
  }),
  'as.m.exam.getCUserReport': action({
    access: REPORTS,
    kind: 'json',
    op: 'read',
    summary:
      'One report in scope: every indicator’s score, band, level, colour, interpretation and advice; warnings; the answers; the form version; staff comments; the person’s results on the same form over time. Audited.',
    input: z.strictObject({ reportid: idString }),
    output: reportDetail,
    ids: { reportid: 'report' },
  }),
  'as.m.exam.getQuotaFilterConditions': action({
    access: REPORTS,
    kind: 'json',
    op: 'read',
    summary:
      'The form and indicator/level filter choices: the forms used by reports under the narrowing fields (most used first, with report counts), each with its indicators and the levels reached (with counts); names from the current form version. (as.m.exam.getExamForms, of the plans domain, lists the forms a stage or app offers.)',
    input: z.strictObject({ ...scopeFields, formcode: reportFilterFields.formcode }),
    output: z.array(quotaFilterForm),
    ids: { ...scopeIds, formcode: 'form' },
  }),
  'as.m.exam.getCUserStagesAssessCount': action({
    access: REPORTS,
    kind: 'json',
    op: 'read',
    summary: 'Per stage: persons, reports and reports with warnings under the report filter; stages ordered by their first report.',
    input: reportFilter,
    output: z.array(stageCountRow),
    ids: { ...reportFilterIds },
  }),
  'as.m.exam.getReportMaxTime': action({
    access: REPORTS,
    kind: 'json',
    op: 'read',
    summary: 'When the latest report under the report filter was stored, or null.',
    input: reportFilter,
    output: z.object({ maxtime: z.string().nullable() }),
    ids: { ...reportFilterIds },
  }),
  'as.m.exam.getCUserExamDataPageList': action({
    access: REPORTS,
    kind: 'json',
    op: 'list',
    summary:
      'Item answers: reports under the report filter, newest first, each with every answered item (option positions, text, item score).',
    input: z.strictObject({ ...reportFilterFields, ...pageFields }),
    output: pageOf(examDataRow),
    ids: { ...reportFilterIds },
  }),
  'as.m.exam.getAnxiousDepressedReportPageList': action({
    access: ANXIOUS_READ,
    kind: 'json',
    op: 'list',
    summary:
      'Reports under the report filter whose anxiety or depression indicators (totals of the built-in PHQ-9, PHQ-A, EPDS, SDS, GDS-15, GAD-7, SAS, MHT; SCL-90 DEP/ANX; any indicator whose Chinese name has 抑郁 or 焦虑; fixed when the report is stored) reach `minlevel` (default 2, moderate), newest first.',
    input: z.strictObject({ ...reportFilterFields, kind: moodKind.optional(), minlevel: z.int().min(1).max(4).default(2), ...pageFields }),
    output: pageOf(anxiousDepressedRow),
    ids: { ...reportFilterIds },
  }),
  'as.m.exam.getPHQ9ChartsData': action({
    access: REPORTS,
    kind: 'json',
    op: 'read',
    summary: 'A person’s PHQ-9 (and PHQ-A) results over time, oldest first: total, level and the item-9 answer. Audited.',
    input: z.strictObject({ cusercode: idString }),
    output: z.array(phq9Point),
    ids: { cusercode: 'person' },
  }),
  'as.m.exam.updateReport': action({
    access: REPORT_WRITE,
    kind: 'json',
    op: 'write',
    summary: 'Add a staff comment to a report in scope (who and when are kept; earlier comments stay as history). Audited.',
    input: z.strictObject({ reportid: idString, comment: requiredText(2000) }),
    output: z.object({ commentid: z.string() }),
    ids: { reportid: 'report' },
  }),
  'as.m.cuser.showOrHiddenReport': action({
    access: REPORT_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Show (hidden 0) or hide (hidden 1) one report (reportid) or every report of a person (cusercode) to the respondent: a hidden report’s result page shows nothing of it (only the crisis text stays). Both named: that one report, which must be the person’s. Audited.',
    input: z.strictObject({ reportid: idString.optional(), cusercode: idString.optional(), hidden: flag }),
    output: z.object({ count: z.int() }),
    ids: { reportid: 'report', cusercode: 'person' },
  }),
  'as.m.exam.clearCUserAssessCount': action({
    access: REPORT_WRITE,
    kind: 'json',
    op: 'write',
    summary:
      'Reset a person’s attempts: every given assessment of the person (or the one assesscode) not yet finished goes back to "issued": answers saved in progress are discarded and open respondent sessions end, so the respondent starts again from the first question with the same code. Submitted reports and finished codes are never touched (a retake is a new code). Audited.',
    input: z.strictObject({ cusercode: idString, assesscode: idString.optional() }),
    output: z.object({ codes: z.int(), progress: z.int() }),
    ids: { cusercode: 'person', assesscode: 'assesscode' },
  }),
  'as.m.cuser.getReportCount': action({
    access: ARCHIVE_READ,
    kind: 'json',
    op: 'list',
    summary: 'Report counts (total, with warnings, latest) of persons in scope.',
    input: z.strictObject({ cusercodes: z.array(idString).min(1).max(200) }),
    output: z.array(reportCountRow),
    ids: { cusercodes: 'person' },
  }),
  'as.m.cuser.getSignaturePicture': action({
    access: ARCHIVE_READ,
    kind: 'json',
    op: 'read',
    summary: 'A person’s latest consent signature (PNG data URL) and when it was signed, or null. Audited.',
    input: z.strictObject({ cusercode: idString }),
    output: z.object({ signature: z.string(), signedat: z.string(), assesscode: z.string() }).nullable(),
    ids: { cusercode: 'person' },
  }),
  'as.m.exam.exportCUserExamData': exportAction(
    'Download the item answers of the reports under the report filter as .xlsx, one row per answered item (streamed; cells starting with = + - @ escaped; an empty result is a file with headers). Audited.',
  ),
  'as.m.exam.exportCUserDetailData': exportAction(
    'Download the reports under the report filter as .xlsx, one row per report with every indicator’s score and level (streamed; formula cells escaped; empty result: headers only). Audited.',
  ),
  'as.m.exam.exportCUserStatData': exportAction(
    'Download counts of the reports under the report filter per form, indicator and level as .xlsx (formula cells escaped; empty result: headers only). Audited.',
  ),
};
