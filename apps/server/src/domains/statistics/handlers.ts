import { compareGrades, populationApps, STATS_INSTITUTION_CAP, type StatsFilter } from '@xinli/contract';
import type { Ctx } from '../../http/context.js';
import type { HandlerMap } from '../../http/handlers.js';
import { invalid } from '../../http/errors.js';
import { addDays, addMonths, daysBetween, eachDay, eachMonth, todayIn } from '../../kit/index.js';
import { statsAccounts, type StatsAccount } from '../accounts/index.js';
import { accountsWithApp } from '../apps/index.js';
import { findFilterStage } from '../plans/index.js';
import {
  assessedAccounts,
  codesByState,
  personsAssessed,
  personsRegistered,
  reportTotals,
  reportsByDay,
  reportsByGender,
  reportsByClass,
  reportsByGrade,
  reportsByMonthAndApp,
  stageCounted,
  type StatsScope,
} from './query.js';

/**
 * Statistics analysis and the data reports' totals (issue 15). Every figure is read from the
 * aggregates the database keeps (tables.ts); the filter is resolved once into a StatsScope.
 */

const MAX_TREND_DAYS = 366;
const MAX_TREND_MONTHS = 36;
const MAX_CLASSES = 500;
/** Providers own institutions; the institution count leaves them out. */
const PROVIDER = '005';

export const ratio = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 10_000 : 0);
/** One collator for every sort: localeCompare with a locale builds one per call (~60 µs each). */
const byText = new Intl.Collator('zh-CN', { numeric: true }).compare;

/** The filter as a scope: the accounts it covers (named institution "not found" outside), app, stage, days. */
export async function statsScope(ctx: Ctx, f: StatsFilter): Promise<StatsScope & { institutions: StatsAccount[] }> {
  const { all, list } = await statsAccounts(ctx, f);
  const accounts = all ? null : list.map((a) => a.musercode);
  if (f.stagecode) await findFilterStage(ctx, ctx.readDb, f.stagecode, () => stageCounted(ctx.readDb, accounts, f.stagecode!));
  return {
    institutions: list,
    accounts,
    appid: f.appid || undefined,
    stagecode: f.stagecode || undefined,
    start: f.startdate,
    end: f.enddate,
  };
}

/** A daily trend's days: as asked, else the 30 days ending today; at most 366 days. */
function dayWindow(ctx: Ctx, f: StatsFilter) {
  const today = todayIn(ctx.now());
  const end = f.enddate ?? (f.startdate && f.startdate > today ? f.startdate : today);
  const start = f.startdate ?? addDays(end, -29);
  if (daysBetween(start, end) >= MAX_TREND_DAYS)
    invalid({ zh: `日趋势最多 ${MAX_TREND_DAYS} 天`, en: `A daily trend spans at most ${MAX_TREND_DAYS} days` });
  return { start, end };
}

/** A monthly trend's days: as asked, else the 12 months ending this month; at most 36 months. */
function monthWindow(ctx: Ctx, f: StatsFilter) {
  const today = todayIn(ctx.now());
  const end = f.enddate ?? (f.startdate && f.startdate > today ? f.startdate : today);
  const start = f.startdate ?? addMonths(end, -11);
  if (eachMonth(start, end).length > MAX_TREND_MONTHS)
    invalid({ zh: `月趋势最多 ${MAX_TREND_MONTHS} 个月`, en: `A monthly trend spans at most ${MAX_TREND_MONTHS} months` });
  return { start, end };
}

const appName = (ctx: Ctx, appid: string) => {
  const a = populationApps.find((p) => p.appid === appid);
  return a ? (ctx.lang === 'en-US' ? a.en : a.zh) : appid;
};

async function moodRatio(ctx: Ctx, f: StatsFilter, mood: 'dep' | 'anx') {
  const totals = await reportTotals(ctx.readDb, await statsScope(ctx, f));
  const levels = totals[mood];
  const total = levels.reduce((a, b) => a + b, 0);
  return { total, rows: levels.map((count, level) => ({ level, count, ratio: ratio(count, total) })) };
}

export const statisticsHandlers = {
  /** The statistics institution picker: the same accounts the figures cover (statsAccounts). */
  'as.m.assess.getStatsInstitutionList': async (f, ctx) => (await statsAccounts(ctx, f, STATS_INSTITUTION_CAP)).list,

  'as.m.assess.getAssessSchoolCount': async (f, ctx) => {
    const scope = await statsScope(ctx, f);
    let institutions = scope.institutions.filter((a) => a.musertype !== PROVIDER).map((a) => a.musercode);
    if (scope.appid) {
      const holders = await accountsWithApp(ctx.readDb, scope.appid, institutions);
      institutions = institutions.filter((code) => holders.has(code));
    }
    const assessed = await assessedAccounts(ctx.readDb, scope);
    return { total: institutions.length, assessed: institutions.filter((code) => assessed.has(code)).length };
  },

  'as.m.assess.getAssessCount': async (f, ctx) => ({ count: (await reportTotals(ctx.readDb, await statsScope(ctx, f))).n }),

  'as.m.assess.getAssessPeopleCount': async (f, ctx) => ({ count: await personsRegistered(ctx.readDb, await statsScope(ctx, f)) }),

  'as.m.assess.getAssessPeopleCompleteCount': async (f, ctx) => ({ count: await personsAssessed(ctx.readDb, await statsScope(ctx, f)) }),

  'as.m.assess.getAssessAbnormalCount': async (f, ctx) => ({ count: (await reportTotals(ctx.readDb, await statsScope(ctx, f))).abnormal }),

  'as.m.assess.getAssessDayCountTrend': async (f, ctx) => {
    const window = dayWindow(ctx, f);
    const rows = await reportsByDay(ctx.readDb, { ...(await statsScope(ctx, f)), ...window });
    const byDay = new Map(rows.map((r) => [r.day, r]));
    return {
      rows: eachDay(window.start, window.end).map((date) => ({
        date,
        count: byDay.get(date)?.n ?? 0,
        abnormal: byDay.get(date)?.abnormal ?? 0,
      })),
    };
  },

  'as.m.assess.getAssessGradeCountTrend': async (f, ctx) => {
    const window = monthWindow(ctx, f);
    const rows = await reportsByGrade(ctx.readDb, { ...(await statsScope(ctx, f)), ...window }, true);
    const sums = new Map(rows.map((r) => [`${r.month}|${r.grade}`, { count: r.n, abnormal: r.abnormal }]));
    const grades = [...new Set([...sums.keys()].map((k) => k.slice(8)))].sort(compareGrades);
    const months = eachMonth(window.start, window.end);
    return {
      grades,
      rows: months.flatMap((month) => grades.map((grade) => ({ month, grade, count: 0, abnormal: 0, ...sums.get(`${month}|${grade}`) }))),
    };
  },

  'as.m.assess.getClassReportCountRatio': async (f, ctx) => {
    const scope = await statsScope(ctx, f);
    const rows = await reportsByClass(ctx.readDb, scope);
    const names = new Map(scope.institutions.map((a) => [a.musercode, a.insname]));
    return {
      rows: rows
        .map((r) => ({
          teamid: r.teamid,
          musercode: r.musercode,
          insname: names.get(r.musercode) ?? '',
          grade: r.grade,
          classname: r.classname,
          count: r.n,
          abnormal: r.abnormal,
          ratio: ratio(r.abnormal, r.n),
        }))
        .sort(
          (a, b) =>
            byText(a.insname, b.insname) ||
            compareGrades(a.grade, b.grade) ||
            byText(a.classname, b.classname) ||
            a.teamid.localeCompare(b.teamid),
        )
        .slice(0, MAX_CLASSES),
    };
  },

  'as.m.assess.getSceneCountTrend': async (f, ctx) => {
    const window = monthWindow(ctx, f);
    const rows = await reportsByMonthAndApp(ctx.readDb, { ...(await statsScope(ctx, f)), ...window });
    const apps = [...new Set(rows.map((r) => r.appid))].sort();
    const byKey = new Map(rows.map((r) => [`${r.month}|${r.appid}`, r]));
    return {
      rows: eachMonth(window.start, window.end).flatMap((month) =>
        apps.map((appid) => {
          const r = byKey.get(`${month}|${appid}`);
          return { month, appid, appname: appName(ctx, appid), count: r?.n ?? 0, abnormal: r?.abnormal ?? 0 };
        }),
      ),
    };
  },

  'as.m.assess.getDepressedQuotaCountRatio': (f, ctx) => moodRatio(ctx, f, 'dep'),

  'as.m.assess.getAnxiousQuotaCountRatio': (f, ctx) => moodRatio(ctx, f, 'anx'),

  'as.m.assess.getManAndWomanAbnormalCountRatio': async (f, ctx) => {
    const byGender = await reportsByGender(ctx.readDb, await statsScope(ctx, f));
    return {
      rows: (['01', '02'] as const).map((gender) => {
        const { n = 0, abnormal = 0 } = byGender.get(gender) ?? {};
        return { gender, count: n, abnormal, ratio: ratio(abnormal, n) };
      }),
    };
  },

  'as.m.assess.getGradeReportCountRatio': async (f, ctx) => {
    const rows = await reportsByGrade(ctx.readDb, await statsScope(ctx, f), false);
    return {
      rows: rows
        .sort((a, b) => compareGrades(a.grade, b.grade))
        .map((r) => ({ grade: r.grade, count: r.n, abnormal: r.abnormal, ratio: ratio(r.abnormal, r.n) })),
    };
  },

  'as.m.hospital.statistic.getTotalAssessCount': async (f, ctx) => {
    const scope = await statsScope(ctx, f);
    const [totals, persons] = await Promise.all([reportTotals(ctx.readDb, scope), personsAssessed(ctx.readDb, scope)]);
    return { reports: totals.n, persons, abnormal: totals.abnormal };
  },

  'as.m.hospital.statistic.getCompleteAssessCount': async (f, ctx) => {
    const codes = await codesByState(ctx.readDb, await statsScope(ctx, f));
    const total = codes.issued + codes.started + codes.finished;
    return { total, ...codes, ratio: ratio(codes.finished, total) };
  },
} satisfies HandlerMap;
