import { z } from 'zod';
import { action, codes, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';
import { calendarDate } from './persons.js';

/**
 * Early warning, cases and follow-up (SPEC §2 /earlyWarning earlyWarningLevel 00046,
 * /registration followUpManagement 00017; DESIGN §9 "Warnings"; research assessment-domain §3).
 *
 * A warning is raised where a report is stored (a critical item, a band marked as raising a
 * warning, worsening against the person's previous report of the same form), by the missed-deadline
 * sweep (a given assessment not finished within the institution's `misseddays`), or by a staff
 * flag. Each has a level (`critical` or `attention`), a reason (a code and its parameters, shown in
 * the reader's language), the report it came from (if any) and the person.
 *
 * Warnings of one person gather in one case while that case is not closed (a database constraint:
 * one open case per person). A case goes open → acknowledged → followup → closed; closing needs
 * an outcome and a note, and the warning page's code 00046 (the follow-up code 00017 alone may
 * record follow-ups and rescreen but not close). Every change is kept as a case event with who
 * and when. A case's level is the highest of its warnings.
 *
 * Notifications: a new critical case (or a warning that makes a case critical) notifies the
 * institution's staff holding 00046 in the console (count, list, and the server-sent event stream
 * `GET /api/events`, see docs) and through the configured outbound channel (webhook), which
 * carries ids, level and a console link only. A critical case not acknowledged within the
 * institution's `escalateminutes` is escalated to the institution's administrators.
 */

/** The crisis warning page (earlyWarningLevel). Closing a case needs it too. */
export const WARNING_CODE = '00046';
/** The follow-up management page (followUpManagement). */
export const FOLLOWUP_CODE = '00017';

const WARN = codes(WARNING_CODE);
const FOLLOW = codes(FOLLOWUP_CODE, WARNING_CODE);
const FOLLOW_ONLY = codes(FOLLOWUP_CODE);
/** The data reports that read intervention records. */
const INTERFERE_READ = codes(FOLLOWUP_CODE, WARNING_CODE, '00011', '00012', '00051', '00053');

export const warningLevel = z.enum(['critical', 'attention']);
export type WarningLevel = z.infer<typeof warningLevel>;
/** Colours of the five-level scale (LevelColours): critical is level 4, attention level 2. */
export const WARNING_LEVEL_COLOURS: Record<WarningLevel, string> = { critical: '#9b1c1c', attention: '#f5a623' };

/** What raised a warning. */
export const warningKind = z.enum(['critical_item', 'band', 'screening', 'worsening', 'missed', 'manual']);
export type WarningKind = z.infer<typeof warningKind>;

export const caseState = z.enum(['open', 'acknowledged', 'followup', 'closed']);
export type CaseState = z.infer<typeof caseState>;

/** How a case ended. */
export const caseOutcome = z.enum(['referred', 'resolved', 'false_alarm', 'lost_contact', 'other']);
export type CaseOutcome = z.infer<typeof caseOutcome>;

/** How a follow-up was made. */
export const contactWay = z.enum(['phone', 'visit', 'interview', 'online', 'other']);

/** The risk judged at a follow-up (five-level scale 0 none .. 4 severe). */
export const riskLevel = z.int().min(0).max(4);

/** Per-institution settings of the triggers and the escalation. */
export const warningSettings = z.object({
  /** A total that rises by at least this many points from the previous report of the same form raises a worsening warning (0: off). */
  worsenpoints: z.int().min(0).max(1000),
  /** A band level that rises by at least this many levels raises a worsening warning (0: off). */
  worsenlevels: z.int().min(0).max(4),
  /** A given assessment not finished this many days after it was given raises one missed warning (0: off). */
  misseddays: z.int().min(0).max(365),
  /** A critical case nobody acknowledges within this many minutes is escalated to the administrators (0: off). */
  escalateminutes: z.int().min(0).max(10_080),
});
export type WarningSettings = z.infer<typeof warningSettings>;
/** Component code: change the warning settings above (issue 27 §5); institution admins hold it, the counsellor role does not. */
export const WARNING_SETTINGS_CODE = '0004601';
/**
 * Defaults: worsening by a band level (points are off, because one number of points cannot suit
 * forms whose totals run 0–27 and 90–450; an institution using mainly PHQ-9 sets 5, its reliable
 * change), two weeks to answer, an hour to acknowledge a critical case.
 */
export const DEFAULT_WARNING_SETTINGS: WarningSettings = { worsenpoints: 0, worsenlevels: 1, misseddays: 14, escalateminutes: 60 };

/** The case list filters, shared by the list and its export. */
const caseFilters = {
  musercode: z.union([idString, z.literal('')]).optional(),
  level: z.union([warningLevel, z.literal('')]).optional(),
  /** A case with at least one warning of this kind. */
  kind: z.union([warningKind, z.literal('')]).optional(),
  /** Population app of the person. */
  appid: z.union([z.string().regex(/^[0-9]{9}$/), z.literal('')]).optional(),
  /** A case with a warning from a report of this stage. */
  stagecode: z.union([idString, z.literal('')]).optional(),
  /** Opened on or after / on or before (China calendar dates). */
  startdate: calendarDate.optional(),
  enddate: calendarDate.optional(),
  /** '' or absent: every state but closed. 'all': every state. */
  state: z.union([caseState, z.literal(''), z.literal('all')]).optional(),
  /** Assigned to this staff user. */
  assignee: z.union([idString, z.literal('')]).optional(),
};

export const warningRow = z.object({
  warningid: z.string(),
  caseid: z.string().nullable(),
  kind: warningKind,
  level: warningLevel,
  colour: z.string(),
  /** The reason in the caller's language. */
  reason: z.string(),
  reportid: z.string().nullable(),
  formcode: z.string(),
  formname: z.string(),
  stagecode: z.string(),
  createdby: z.string(),
  createdat: z.string(),
});
export type WarningRow = z.infer<typeof warningRow>;

export const caseRow = z.object({
  caseid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  cusercode: z.string(),
  realname: z.string(),
  appid: z.string(),
  state: caseState,
  level: warningLevel,
  colour: z.string(),
  /** The kinds of its warnings. */
  kinds: z.array(warningKind),
  /** The latest warning's reason in the caller's language. */
  reason: z.string(),
  warningcount: z.int(),
  assignee: z.string(),
  assigneename: z.string(),
  outcome: caseOutcome.nullable(),
  openedat: z.string(),
  lastwarningat: z.string(),
  acknowledgedat: z.string().nullable(),
  escalatedat: z.string().nullable(),
  closedat: z.string().nullable(),
  /** The next follow-up date planned (China calendar date) or ''. */
  nextdate: z.string(),
  /** The next follow-up date has passed and the case is not closed. */
  overdue: z.boolean(),
});
export type CaseRow = z.infer<typeof caseRow>;

export const caseEvent = z.object({
  at: z.string(),
  by: z.string(),
  byname: z.string(),
  from: z.union([caseState, z.literal('')]),
  to: caseState,
  /** What happened: state, assign, warning (a warning joined), followup, rescreen, escalate. */
  what: z.enum(['state', 'assign', 'warning', 'followup', 'rescreen', 'escalate']),
  note: z.string(),
});

export const followUpRow = z.object({
  followid: z.string(),
  caseid: z.string(),
  musercode: z.string(),
  cusercode: z.string(),
  realname: z.string(),
  followdate: z.string(),
  way: contactWay,
  by: z.string(),
  byname: z.string(),
  content: z.string(),
  risk: riskLevel,
  nextdate: z.string(),
  /** This is the case's latest follow-up, its next date has passed and the case is open. */
  overdue: z.boolean(),
  createdat: z.string(),
});
export type FollowUpRow = z.infer<typeof followUpRow>;

export const notificationRow = z.object({
  noticeid: z.string(),
  kind: z.enum(['critical', 'escalated']),
  caseid: z.string(),
  level: warningLevel,
  /** Shown in the navbar list; no name or phone. */
  text: z.string(),
  read: z.boolean(),
  createdat: z.string(),
});

/** A count of an oversight summary: null when 1 to mincell-1 (a small cell could point at a person). */
const cell = z.int().nullable();

export const caseSummary = z.object({
  /** Counts from 1 to mincell - 1 are withheld (null). */
  mincell: z.int(),
  total: cell,
  bylevel: z.array(z.object({ level: warningLevel, count: cell })),
  bystate: z.array(z.object({ state: caseState, count: cell })),
  /** Per institution of the district (most cases first). */
  byschool: z.array(z.object({ musercode: z.string(), insname: z.string(), total: cell, critical: cell, open: cell })),
  /** Follow-ups recorded on these cases. */
  followups: cell,
});
export type CaseSummary = z.infer<typeof caseSummary>;

const caseIdInput = { caseid: idString };

export const warningActions = {
  'as.m.warning.getCasePageList': action({
    access: WARN,
    kind: 'json',
    op: 'list',
    summary:
      'Cases of the caller’s scope, critical first then the latest warning first; filters: level, kind, population, stage, dates, state (default: not closed), assignee. Names shown; no phone or ID.',
    input: z.strictObject({ ...caseFilters, ...pageFields }),
    output: pageOf(caseRow).extend({ counts: z.object({ critical: z.int(), attention: z.int(), open: z.int() }) }),
    ids: { musercode: 'muser', stagecode: 'stage', assignee: 'sysuser' },
  }),
  'as.m.warning.getCaseSummary': action({
    access: WARN,
    kind: 'json',
    op: 'read',
    summary:
      'Crisis cases as totals over the institutions the caller’s statistics cover (an education bureau: the schools of its district): per level, per state and per institution, and the follow-ups recorded; cases opened between two dates. No person; counts under AI_MIN_CELL withheld.',
    input: z.strictObject({
      musercode: z.union([idString, z.literal('')]).optional(),
      startdate: calendarDate.optional(),
      enddate: calendarDate.optional(),
    }),
    output: caseSummary,
    ids: { musercode: 'muser' },
  }),
  'as.m.warning.getCase': action({
    access: FOLLOW,
    kind: 'json',
    op: 'read',
    summary: 'One case in scope: the case, its warnings, its events (who, when, from → to) and its follow-ups. Audited.',
    input: z.strictObject(caseIdInput),
    output: z.object({ case: caseRow, warnings: z.array(warningRow), events: z.array(caseEvent), followups: z.array(followUpRow) }),
    ids: { caseid: 'case' },
  }),
  'as.m.warning.acknowledgeCase': action({
    access: WARN,
    kind: 'json',
    op: 'write',
    summary: 'open → acknowledged (stops the escalation clock).',
    input: z.strictObject({ ...caseIdInput, note: text(500).optional() }),
    output: z.null(),
    ids: { caseid: 'case' },
  }),
  'as.m.warning.assignCase': action({
    access: WARN,
    kind: 'json',
    op: 'write',
    summary: "Assign a case to a staff user of its institution (userid) or to nobody ('').",
    input: z.strictObject({ ...caseIdInput, userid: z.union([idString, z.literal('')]), note: text(500).optional() }),
    output: z.null(),
    ids: { caseid: 'case', userid: 'sysuser' },
  }),
  'as.m.warning.startFollowUp': action({
    access: WARN,
    kind: 'json',
    op: 'write',
    summary: 'open or acknowledged → followup.',
    input: z.strictObject({ ...caseIdInput, note: text(500).optional() }),
    output: z.null(),
    ids: { caseid: 'case' },
  }),
  'as.m.warning.closeCase': action({
    access: WARN,
    kind: 'json',
    op: 'write',
    summary: 'Close a case with an outcome and a note; needs the warning code 00046. A later warning of the person opens a new case.',
    input: z.strictObject({ ...caseIdInput, outcome: caseOutcome, note: requiredText(1000) }),
    output: z.null(),
    ids: { caseid: 'case' },
  }),
  'as.m.warning.flagPerson': action({
    access: FOLLOW,
    kind: 'json',
    op: 'write',
    summary: 'A manual warning on a person in scope, with its level and reason; it joins the person’s open case or opens one.',
    input: z.strictObject({ cusercode: idString, level: warningLevel, note: requiredText(500) }),
    output: z.object({ warningid: z.string(), caseid: z.string() }),
    ids: { cusercode: 'person' },
  }),
  'as.m.warning.insertFollowUp': action({
    access: FOLLOW,
    kind: 'json',
    op: 'write',
    summary:
      'A follow-up record on a case not closed (date, way, what was done, risk now, next date); an open or acknowledged case moves to followup.',
    input: z.strictObject({
      ...caseIdInput,
      followdate: calendarDate,
      way: contactWay,
      content: requiredText(2000),
      risk: riskLevel,
      nextdate: z.union([calendarDate, z.literal('')]).optional(),
    }),
    output: z.object({ followid: z.string() }),
    ids: { caseid: 'case' },
  }),
  'as.m.warning.getFollowUpPageList': action({
    access: FOLLOW,
    kind: 'json',
    op: 'list',
    summary: 'Follow-up records in scope (of one case, or all), overdue first then newest; filter overdue only, dates.',
    input: z.strictObject({
      caseid: z.union([idString, z.literal('')]).optional(),
      musercode: z.union([idString, z.literal('')]).optional(),
      overdue: z.boolean().optional(),
      startdate: calendarDate.optional(),
      enddate: calendarDate.optional(),
      ...pageFields,
    }),
    output: pageOf(followUpRow),
    ids: { caseid: 'case', musercode: 'muser' },
  }),
  'as.m.warning.rescreenCase': action({
    access: FOLLOW_ONLY,
    kind: 'json',
    op: 'write',
    summary: 'Give the case’s person a plan (or stage) again, as individual assessment does; recorded on the case.',
    input: z.strictObject({ ...caseIdInput, plancode: idString, stagecode: idString.optional() }),
    output: z.object({ assesscode: z.string(), url: z.string() }),
    ids: { caseid: 'case', plancode: 'plan', stagecode: 'stage' },
  }),
  'as.m.warning.getWarningSettings': action({
    access: WARN,
    kind: 'json',
    op: 'read',
    summary: 'The trigger and escalation settings of the caller’s institution (or one in scope); defaults until changed.',
    input: z.strictObject({ musercode: idString.optional() }),
    output: warningSettings.extend({ musercode: z.string() }),
    ids: { musercode: 'muser' },
  }),
  'as.m.warning.updateWarningSettings': action({
    // Its own code: working cases (00046) does not include deciding what raises or escalates them.
    access: codes(WARNING_SETTINGS_CODE),
    kind: 'json',
    op: 'write',
    summary:
      'Change the trigger and escalation settings of the caller’s institution (or one in scope); needs code 0004601 (not the case code 00046); audited with the old and new values.',
    input: z.strictObject({ musercode: idString.optional(), ...warningSettings.shape }),
    output: z.null(),
    ids: { musercode: 'muser' },
    changes: 'settings',
  }),
  'as.m.warning.getNotificationCount': action({
    access: WARN,
    kind: 'json',
    op: 'read',
    summary: 'Unread notifications of the caller (the navbar badge).',
    input: z.strictObject({}),
    output: z.object({ unread: z.int() }),
  }),
  'as.m.warning.getNotificationList': action({
    access: WARN,
    kind: 'json',
    op: 'list',
    summary: 'The caller’s notifications, newest first (ids, level and a text without name or phone).',
    input: z.strictObject({ unread: z.boolean().optional(), ...pageFields }),
    output: pageOf(notificationRow),
  }),
  'as.m.warning.markNotificationsRead': action({
    access: WARN,
    kind: 'json',
    op: 'write',
    summary:
      'Mark the caller’s notifications read: those of one case in scope, or all when no case is named; answers the unread count left.',
    input: z.strictObject({ caseid: idString.optional() }),
    output: z.object({ unread: z.int() }),
    ids: { caseid: 'case' },
  }),
  'as.m.exam.exportCUserWarningDetailData': action({
    access: WARN,
    kind: 'download',
    op: 'export',
    summary: 'Download the filtered case list as .xlsx (one row per warning, names, no phone or ID); audited.',
    input: z.strictObject(caseFilters),
    output: z.unknown(),
    ids: { musercode: 'muser', stagecode: 'stage', assignee: 'sysuser' },
  }),
  'as.m.hospital.statistic.getInterfereRecord': action({
    access: INTERFERE_READ,
    kind: 'json',
    op: 'list',
    summary:
      'Intervention records for the data reports: follow-ups in scope between two dates (masked, no phone or ID) and the case counts by state and outcome.',
    input: z.strictObject({
      musercode: z.union([idString, z.literal('')]).optional(),
      startdate: calendarDate.optional(),
      enddate: calendarDate.optional(),
      ...pageFields,
    }),
    output: pageOf(followUpRow).extend({
      cases: z.object({ total: z.int(), open: z.int(), closed: z.int(), critical: z.int(), outcomes: z.record(z.string(), z.int()) }),
    }),
    ids: { musercode: 'muser' },
  }),
};
