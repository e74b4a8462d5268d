import { z } from 'zod';
import { action, codes, idString } from '../catalogue-kit.js';
import { writerKind, writtenRiskLevel } from './written-reports.js';

/**
 * The AI group report (SPEC §2 /task/groupReport, menu 00043): the results of one assessment task,
 * of all its teams or of one, as aggregates. Participation, the distribution of band levels per
 * indicator, the comparison between classes and between grades, the comparison with the previous
 * task of the same teams, and the people who need attention (names masked, linked to their warning
 * case). A written summary comes from the same two writers as the AI individual report: the
 * rule-based writer by default, the LLM when configured; a writer is given aggregates only
 * (counts and rates, never a name, code or id). Print and PDF as for individual reports.
 */

const ACCESS = codes('00043');
const reportLang = z.enum(['zh-CN', 'en-US']);

/** The task, and optionally one of its teams. */
export const groupScope = z.strictObject({ taskid: idString, teamid: idString.optional() });
const scopeIds = { taskid: 'task', teamid: 'team' } as const;

/** Counts of persons per band level 0–4 (index = level). */
const levelCounts = z.array(z.int()).length(5);

export const groupParticipation = z.object({
  /** Persons on the task's rosters (of the chosen team). */
  members: z.int(),
  /** Finished every form / started but not finished / not started. */
  finished: z.int(),
  started: z.int(),
  notstarted: z.int(),
  /** finished / members, 0–100 with one decimal; 0 when nobody is on the roster. */
  rate: z.number(),
});
export type GroupParticipation = z.infer<typeof groupParticipation>;

/** One indicator of one form: how many persons reached each level (their current report of the task). */
export const groupIndicator = z.object({
  formcode: z.string(),
  formname: z.string(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(['total', 'factor']),
  /** Persons with a result of this indicator; levels[k] of them are at level k. */
  total: z.int(),
  levels: levelCounts,
  /** Mean score, two decimals. */
  mean: z.number(),
  /**
   * The form's default norm of this indicator and the group mean against it (issue 31 §2): z of the
   * mean in the norm's SD units, T = 50 + 10z, and the norm's source for a footnote; absent when none.
   */
  norm: z
    .object({
      mean: z.number(),
      sd: z.number(),
      z: z.number(),
      t: z.number(),
      name: z.string(),
      population: z.string(),
      samplesize: z.int(),
      year: z.int(),
      source: z.string(),
    })
    .nullable()
    .optional(),
});
export type GroupIndicator = z.infer<typeof groupIndicator>;

/** A class (team) or a grade compared with the others. */
export const groupCompareRow = z.object({
  key: z.string(),
  name: z.string(),
  members: z.int(),
  finished: z.int(),
  rate: z.number(),
  /** Persons by their worst level over the task's indicators. */
  levels: levelCounts,
  /** Persons with at least one warning from the task's reports. */
  warned: z.int(),
});
export type GroupCompareRow = z.infer<typeof groupCompareRow>;

export const groupAttentionRow = z.object({
  cusercode: z.string(),
  /** Masked: 张*三. */
  realname: z.string(),
  teamid: z.string(),
  teamname: z.string(),
  /** The person's worst report of the task (to open it) and its worst level. */
  reportid: z.string(),
  formname: z.string(),
  level: z.int(),
  warning: z.int(),
  /** The person's warning case (open or the latest), or null when none was raised. */
  caseid: z.string().nullable(),
  casestate: z.string().nullable(),
  /** Why the case was raised (warning kinds: critical_item, band …), so the list says why a person is listed. */
  casekinds: z.array(z.string()),
});
export type GroupAttentionRow = z.infer<typeof groupAttentionRow>;

export const groupReport = z.object({
  task: z.object({
    taskid: z.string(),
    taskname: z.string(),
    musercode: z.string(),
    insname: z.string(),
    starttime: z.string(),
    endtime: z.string(),
  }),
  /** The task's teams (the chooser), and whether their reports are hidden from respondents (showOrHiddenTeamReport). */
  teams: z.array(z.object({ teamid: z.string(), teamname: z.string(), grade: z.string(), reporthidden: z.int() })),
  teamid: z.string().nullable(),
  participation: groupParticipation,
  indicators: z.array(groupIndicator),
  byteam: z.array(groupCompareRow),
  bygrade: z.array(groupCompareRow),
  /** The previous task of the same teams (ended before this one started), or null. */
  previous: z
    .object({
      taskid: z.string(),
      taskname: z.string(),
      endtime: z.string(),
      participation: groupParticipation,
      indicators: z.array(groupIndicator),
    })
    .nullable(),
  /** Worst first; at most 200. */
  attention: z.array(groupAttentionRow),
});
export type GroupReport = z.infer<typeof groupReport>;

const paragraph = z.string().trim().min(1).max(2000);

/** The text of a group summary, in one language. */
export const groupSummarySections = z.strictObject({
  summary: paragraph,
  findings: z.array(paragraph).max(30),
  risk: z.strictObject({ level: writtenRiskLevel, text: paragraph }),
  /** Next steps for the school or employer (classes to visit, follow-up, re-screening). */
  steps: z.array(z.string().trim().min(1).max(500)).max(20),
});
export type GroupSummarySections = z.infer<typeof groupSummarySections>;

export const groupSummary = z.object({
  summaryid: z.string(),
  state: z.enum(['queued', 'writing', 'failed', 'draft', 'approved']),
  writer: writerKind,
  model: z.string(),
  lang: reportLang,
  sections: groupSummarySections.nullable(),
  error: z.string().nullable(),
  createdat: z.string(),
  createdby: z.string(),
  writtenat: z.string().nullable(),
  approvedat: z.string().nullable(),
  approvedby: z.string().nullable(),
});
export type GroupSummary = z.infer<typeof groupSummary>;

export const groupReportActions = {
  'as.m.assess.getGroupReport': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary:
      'The group report of a task in scope, of all its teams or of one: participation, level distribution per indicator, classes and grades compared, the previous task of the same teams, and the persons needing attention (names masked, with their warning case). Audited.',
    input: groupScope,
    output: groupReport,
    ids: scopeIds,
  }),
  'as.m.assess.generateGroupSummary': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary:
      'Queue a written summary of the group report (rule-based writer by default; the LLM when configured, given aggregates only). Refused while one of the same task and team is being written, or when nobody has finished.',
    input: groupScope.extend({ writer: writerKind.optional(), lang: reportLang.optional() }),
    output: z.object({ summaryid: z.string() }),
    ids: scopeIds,
  }),
  'as.m.assess.getGroupSummary': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary: 'The latest written summary of a task (and team) in scope, or null.',
    input: groupScope,
    output: groupSummary.nullable(),
    ids: scopeIds,
  }),
  'as.m.assess.approveGroupSummary': action({
    access: ACCESS,
    kind: 'json',
    op: 'write',
    summary: 'Approve the latest written summary of a task (and team): it must be a draft. The printed report carries an approved summary only.',
    input: groupScope,
    output: z.null(),
    ids: scopeIds,
  }),
  'as.m.assess.getGroupReportDocument': action({
    access: ACCESS,
    kind: 'json',
    op: 'read',
    summary:
      'The group report as a printable A4 HTML document in the caller’s language (charts as inline SVG; names masked); pdf tells whether this server can make PDFs. Audited.',
    input: groupScope,
    output: z.object({ html: z.string(), pdf: z.boolean() }),
    ids: scopeIds,
  }),
  'as.m.assess.exportGroupReportPdf': action({
    access: ACCESS,
    kind: 'download',
    op: 'export',
    summary: 'The group report as an A4 PDF (the printable document, made by the system Chromium). Refused (conflict) without Chromium. Audited.',
    input: groupScope,
    output: z.unknown(),
    ids: scopeIds,
  }),
};
