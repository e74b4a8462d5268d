/**
 * THE LINK MODULE: every link from one console page to another is built here, so a page, a
 * feature or the layout's notification bell never imports another page to know its route. It is
 * the one part of features/ the layout may import (eslint.config.js): keep it free of the kit,
 * antd and domain schemas, which would otherwise load with every console page.
 */
import { PopulationApp, type StatsFilter } from '@xinli/contract';
import { pagesOf, populationPages } from '../lib/populations';
import { encodeQuota } from './reports/report-filter';
import { monthRange } from './stats/stats-filter';

/**
 * Links to the case page, apart from warning-ui: the layout's notification bell uses them, and
 * importing warning-ui would put the warning domain's schemas into every console page.
 */
export const CASE_PAGE = '/earlyWarning/earlyWarning';
/** The case page with the case's drawer open. */
export const caseLink = (caseid: string) => `${CASE_PAGE}?state=all&caseid=${encodeURIComponent(caseid)}`;

/** The report page of one report (the hidden /echarts/web route). */
export const reportLink = (reportid: string) => `/echarts/web?reportid=${encodeURIComponent(reportid)}`;

/** The archive page of a person (its population's detail page; the first for other apps). */
export function archiveLink(appid: string, cusercode: string): string {
  return `${(pagesOf(appid) ?? populationPages[0]).archive}?cusercode=${encodeURIComponent(cusercode)}`;
}

/** The report list page of a population app (SPEC §2 usersReport, usersReport2..4, usersReportCustom). */
export function reportPageOf(appid: string | undefined): string | undefined {
  if (appid === PopulationApp.customReport) return '/empower/usersReportCustom';
  return pagesOf(appid)?.reports;
}

export interface ReportLinkTarget {
  appid: string;
  filter: StatsFilter;
  /** One day ('2026-03-05') or one month ('2026-03') instead of the filter's dates. */
  date?: string;
  month?: string;
  /** The bar's own group: a gender, a class or a grade, and the abnormal reports only. */
  gender?: string;
  teamid?: string;
  grade?: string;
  abnormal?: boolean;
  /** The anxiety / depression view at a level or above (levels 1-4). */
  mood?: { kind: 'anxious' | 'depressed'; minlevel: number };
  /** One indicator of one form at one level (the report list's `quota` condition); dates are not carried. */
  quota?: { formcode: string; quotacode: string; level: number };
}

const REGION = ['provincecode', 'citycode', 'districtcode'] as const;

/**
 * The report list showing the reports behind a bar or point: the population's list with the
 * statistics filter (institution, region, stage, dates), the reports the statistics count
 * (`counted`) and the bar's group, so its total is the bar's value. Or its anxiety / depression
 * view (which has no stage filter). Undefined when the app has no report list.
 */
export function reportListLink(target: ReportLinkTarget): string | undefined {
  const { appid, filter, date, month, mood, quota } = target;
  const page = reportPageOf(appid);
  if (!page) return undefined;
  const q = new URLSearchParams();
  const put = (key: string, value: string | undefined) => value && q.set(key, value);
  if (mood) {
    q.set('view', 'mood');
    q.set('kind', mood.kind);
    q.set('minlevel', String(Math.min(4, Math.max(1, mood.minlevel))));
  }
  if (quota) put('quota', encodeQuota({ formcode: quota.formcode, quotacode: quota.quotacode, levels: [quota.level] })!);
  put('musercode', filter.musercode);
  if (!mood) put('stagecode', filter.stagecode);
  if (!mood && !quota) {
    for (const k of REGION) put(k, filter[k]);
    q.set('counted', '1');
    put('gender', target.gender);
    put('teamid', target.teamid);
    put('grade', target.grade);
    if (target.abnormal) q.set('abnormal', '1');
  }
  const range = date
    ? { startdate: date, enddate: date }
    : month
      ? monthRange(month, filter)
      : { startdate: filter.startdate, enddate: filter.enddate };
  if (!quota) {
    put('startdate', range.startdate);
    put('enddate', range.enddate);
  }
  const s = q.toString();
  return s ? `${page}?${s}` : page;
}
