import { z } from 'zod';
import { action, codes, idString, pageFields, pageOf, text } from '../catalogue-kit.js';
import { regionCode } from './accounts.js';
import { calendarDate } from './persons.js';
import { planAuthorizeRow } from './plans.js';
import { institutionOption } from './system.js';

/**
 * Statistics analysis (SPEC §2 /statistics statistics1 and /statisticsN, 00010/00011, and the
 * big screen) and the data reports (/Datastatistics 00051: plan authorisation detail 00052 and
 * statistics 00053).
 *
 * What is counted: a report of a living person that is neither hidden nor voided. A report is
 * "abnormal" when its overall mental state is 2 (mild), 3 (moderate) or 4 (severe emotional
 * problem, SPEC §3). Every action takes `{}` for the caller's whole scope; the filter narrows it
 * to one institution in scope, a region (of the institutions), a population app, a stage and a
 * China calendar date range of the report (both ends included). Every figure equals a count over
 * the raw rows; the server answers most of them from daily aggregates kept exact by the database.
 */

const STATS = codes('00010', '00011', '00012');
/** The big screen and the data reports show the same totals. */
const STATS_OR_DATA = codes('00010', '00011', '00012', '00051', '00052', '00053');
const DATA_REPORTS = codes('00051', '00052', '00053');

const appid = z.string().regex(/^[0-9]{9}$/);
const orEmpty = <T extends z.ZodType>(t: T) => z.union([t, z.literal('')]).optional();

export const statsFilterFields = {
  /** One institution in scope; empty for all. */
  musercode: orEmpty(idString),
  provincecode: orEmpty(regionCode),
  citycode: orEmpty(regionCode),
  districtcode: orEmpty(regionCode),
  appid: orEmpty(appid),
  stagecode: orEmpty(idString),
  startdate: calendarDate.optional(),
  enddate: calendarDate.optional(),
};
const dateOrder = (v: { startdate?: string; enddate?: string }) => !v.startdate || !v.enddate || v.startdate <= v.enddate;
export const statsFilter = z
  .strictObject(statsFilterFields)
  .refine(dateOrder, { message: 'enddate is before startdate', path: ['enddate'] });
export type StatsFilter = z.output<typeof statsFilter>;
const statsIds = { musercode: 'muser', stagecode: 'stage' } as const;

const count = z.object({ count: z.int() });
/** count reports, of which abnormal; ratio = abnormal / count (0 when count is 0), 4 decimals. */
const ratioFields = { count: z.int(), abnormal: z.int(), ratio: z.number() };
const levelRow = z.object({ level: z.int().min(0).max(4), count: z.int(), ratio: z.number() });

export const dayTrendRow = z.object({ date: z.string(), count: z.int(), abnormal: z.int() });
export const gradeTrendRow = z.object({ month: z.string(), grade: z.string(), count: z.int(), abnormal: z.int() });
export const classRatioRow = z.object({
  teamid: z.string(),
  musercode: z.string(),
  insname: z.string(),
  grade: z.string(),
  classname: z.string(),
  ...ratioFields,
});
export const sceneTrendRow = z.object({ month: z.string(), appid: z.string(), appname: z.string(), count: z.int(), abnormal: z.int() });
export const genderRatioRow = z.object({ gender: z.enum(['01', '02']), ...ratioFields });
export const gradeRatioRow = z.object({ grade: z.string(), ...ratioFields });
export const moodRatio = z.object({ total: z.int(), rows: z.array(levelRow) });

export const planAuthorizeDetailRow = planAuthorizeRow.extend({
  remaining: z.int(),
  /** Active and ending within 30 days of the server's today. */
  expiring: z.boolean(),
  appid: z.string(),
  appname: z.string(),
});
const planAuthorizeFilterFields = {
  musercode: orEmpty(idString),
  plancode: orEmpty(idString),
  status: z.union([z.enum(['pending', 'active', 'expired', 'expiring']), z.literal('')]).optional(),
};
const planAuthorizeIds = { musercode: 'muser', plancode: 'plan' } as const;

const stat = <O extends z.ZodType>(summary: string, output: O) =>
  action({ access: STATS, kind: 'json', op: 'read', summary, input: statsFilter, output, ids: statsIds });

/** At most this many institutions in the statistics picker; the name search finds the others. */
export const STATS_INSTITUTION_CAP = 200;

export const statisticsActions = {
  'as.m.assess.getStatsInstitutionList': action({
    access: STATS_OR_DATA,
    kind: 'json',
    op: 'list',
    summary: `The accounts the caller's statistics cover (a bureau: the schools of its region; a provider: itself and its institutions), for the statistics institution filter; narrowed by region and a name search, ordered by code, at most ${STATS_INSTITUTION_CAP}.`,
    input: z.strictObject({
      insname: text(50).optional(),
      provincecode: statsFilterFields.provincecode,
      citycode: statsFilterFields.citycode,
      districtcode: statsFilterFields.districtcode,
    }),
    output: z.array(institutionOption),
  }),
  'as.m.assess.getAssessSchoolCount': action({
    access: STATS_OR_DATA,
    kind: 'json',
    op: 'read',
    summary:
      'Institutions (not providers) in scope under the institution/region/app filter (total), and how many of them have a counted report in the date/stage range (assessed).',
    input: statsFilter,
    output: z.object({ total: z.int(), assessed: z.int() }),
    ids: statsIds,
  }),
  'as.m.assess.getAssessCount': action({
    access: STATS_OR_DATA,
    kind: 'json',
    op: 'read',
    summary: 'Counted reports under the filter.',
    input: statsFilter,
    output: count,
    ids: statsIds,
  }),
  'as.m.assess.getAssessPeopleCount': action({
    access: STATS_OR_DATA,
    kind: 'json',
    op: 'read',
    summary:
      'Living persons under the institution/region/app filter registered in the date range (all registered when no dates); the stage is ignored.',
    input: statsFilter,
    output: count,
    ids: statsIds,
  }),
  'as.m.assess.getAssessPeopleCompleteCount': action({
    access: STATS_OR_DATA,
    kind: 'json',
    op: 'read',
    summary: 'Distinct living persons with at least one counted report under the filter.',
    input: statsFilter,
    output: count,
    ids: statsIds,
  }),
  'as.m.assess.getAssessAbnormalCount': action({
    access: STATS_OR_DATA,
    kind: 'json',
    op: 'read',
    summary: 'Counted reports whose mental state is 2, 3 or 4 under the filter.',
    input: statsFilter,
    output: count,
    ids: statsIds,
  }),
  'as.m.assess.getAssessDayCountTrend': stat(
    'Counted and abnormal reports per China calendar day, every day of the range present (zero when none); the range defaults to the 30 days ending today and may span at most 366 days.',
    z.object({ rows: z.array(dayTrendRow) }),
  ),
  'as.m.assess.getAssessGradeCountTrend': stat(
    'Counted and abnormal reports per month and grade (the grade of the class the task was given to; reports outside a class task are left out); the range defaults to the 12 months ending this month.',
    z.object({ grades: z.array(z.string()), rows: z.array(gradeTrendRow) }),
  ),
  'as.m.assess.getClassReportCountRatio': stat(
    'Per class (team of a class task): counted reports, abnormal ones and their ratio, ordered by institution, grade and class; at most 500 classes.',
    z.object({ rows: z.array(classRatioRow) }),
  ),
  'as.m.assess.getSceneCountTrend': stat(
    'Counted and abnormal reports per month and population app (scene); the range defaults to the 12 months ending this month.',
    z.object({ rows: z.array(sceneTrendRow) }),
  ),
  'as.m.assess.getDepressedQuotaCountRatio': stat(
    'Depression indicator results of counted reports per band level 0-4 (every level present), with their share of the total.',
    moodRatio,
  ),
  'as.m.assess.getAnxiousQuotaCountRatio': stat(
    'Anxiety indicator results of counted reports per band level 0-4 (every level present), with their share of the total.',
    moodRatio,
  ),
  'as.m.assess.getManAndWomanAbnormalCountRatio': stat(
    'Per gender (01 male, 02 female, both present): counted reports, abnormal ones and their ratio.',
    z.object({ rows: z.array(genderRatioRow) }),
  ),
  'as.m.assess.getGradeReportCountRatio': stat(
    'Per grade (of class tasks): counted reports, abnormal ones and their ratio, ordered by grade.',
    z.object({ rows: z.array(gradeRatioRow) }),
  ),
  'as.m.hospital.statistic.getTotalAssessCount': action({
    access: DATA_REPORTS,
    kind: 'json',
    op: 'read',
    summary: 'Totals for the data reports: counted reports, distinct persons assessed and abnormal reports under the filter.',
    input: statsFilter,
    output: z.object({ reports: z.int(), persons: z.int(), abnormal: z.int() }),
    ids: statsIds,
  }),
  'as.m.hospital.statistic.getCompleteAssessCount': action({
    access: DATA_REPORTS,
    kind: 'json',
    op: 'read',
    summary:
      'Assessments given (one-time codes of living persons) in the date range by state: issued, started, finished, and the completion rate finished / total (4 decimals); app and stage filters apply to the code’s plan stage when set.',
    input: statsFilter,
    output: z.object({ total: z.int(), issued: z.int(), started: z.int(), finished: z.int(), ratio: z.number() }),
    ids: statsIds,
  }),
  'as.m.hospital.statistic.getPlanAuthorizeDetails': action({
    access: DATA_REPORTS,
    kind: 'json',
    op: 'list',
    summary:
      'Plan authorisations the caller’s scope granted or received, with used, remaining and the expiring flag; filtered by institution, plan and status; newest first; paged.',
    input: z.strictObject({ ...planAuthorizeFilterFields, ...pageFields }),
    output: pageOf(planAuthorizeDetailRow),
    ids: planAuthorizeIds,
  }),
  'as.m.hospital.statistic.getPlanAuthorizeCount': action({
    access: DATA_REPORTS,
    kind: 'json',
    op: 'read',
    summary:
      'Plan authorisation statistics under the same filter as the details: authorisations by status and the assessments authorised, used and remaining; and per institution (at most 200, most authorised first).',
    input: z.strictObject(planAuthorizeFilterFields),
    output: z.object({
      authorizations: z.int(),
      pending: z.int(),
      active: z.int(),
      expiring: z.int(),
      expired: z.int(),
      count: z.int(),
      used: z.int(),
      remaining: z.int(),
      institutions: z.array(z.object({ musercode: z.string(), insname: z.string(), count: z.int(), used: z.int(), remaining: z.int() })),
    }),
    ids: planAuthorizeIds,
  }),
  'as.m.hospital.statistic.exportPlanAuthorizeDetails': action({
    access: DATA_REPORTS,
    kind: 'download',
    op: 'export',
    summary: 'Download the filtered plan authorisation details as .xlsx (headers only when empty); audited.',
    input: z.strictObject(planAuthorizeFilterFields),
    output: z.unknown(),
    ids: planAuthorizeIds,
  }),
};

export type DayTrendRow = z.infer<typeof dayTrendRow>;
export type ClassRatioRow = z.infer<typeof classRatioRow>;
export type PlanAuthorizeDetailRow = z.infer<typeof planAuthorizeDetailRow>;
