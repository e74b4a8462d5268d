import { INSTITUTION_TIME_ZONE, timeInZone, type ReportDetail } from '@xinli/contract';
import type { Ctx } from '../../../http/context.js';
import { iso } from '../../../kit/index.js';
import { personBriefs } from '../../persons/index.js';
import { reportDetail } from '../reports.js';
import { applyVersion, versionForReport } from '../custom/use.js';
import type { DocumentModel, Phq9Point, TrendPoint } from './model.js';

/**
 * Gathers what the printable report shows through the functions the reports and persons domains
 * export. The read of the report is scoped (another institution's report is "not found"); the
 * calling action audits it.
 */

/** Whole years between a birth date (YYYY-MM-DD) and a calendar date, null when unknown. */
export function ageAt(birthdate: string | null | undefined, on: string): number | null {
  if (!birthdate || !/^\d{4}-\d{2}-\d{2}$/.test(birthdate)) return null;
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  const age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  return age >= 0 && age < 150 ? age : null;
}

const chinaDate = (instant: string) => timeInZone(instant, INSTITUTION_TIME_ZONE).slice(0, 10);

/** `template: false`: the standard document, whatever template the report has (a template's preview lays it out itself). */
export async function documentModel(ctx: Ctx, reportid: string, opts: { template?: boolean } = {}): Promise<DocumentModel> {
  const report = await reportDetail(ctx, reportid);
  const person = (await personBriefs(ctx.db, [report.cusercode], ctx.lang)).get(report.cusercode);
  const lang = ctx.lang;
  const names = new Map(report.indicators.map((i) => [i.code, lang === 'en-US' && i.name.en ? i.name.en : i.name.zh]));
  const trend: TrendPoint[] = report.trend.map((t) => ({
    reportid: t.reportid,
    createdat: t.createdat,
    mentalstate: t.mentalstate,
    indicators: t.indicators.map((i) => ({
      code: i.quotacode,
      name: names.get(i.quotacode) ?? i.quotacode,
      score: i.score,
      level: i.level,
      colour: i.colour,
    })),
  }));
  const m: DocumentModel = {
    lang,
    institution: { name: report.insname, logo: null },
    report,
    person: { realname: report.realname, gender: report.gender, age: ageAt(person?.birthdate, chinaDate(report.createdat)) },
    trend,
    phq9: report.formcode === 'PHQ9' ? await phq9History(ctx, report) : null,
    comments: report.comments.map((c) => ({ author: c.username, createdat: c.createdat, text: c.comment })),
    printedat: iso(ctx.now()),
  };
  // The custom report (issue 31 §4): the version the report keeps, or its plan's template's current one.
  const version = opts.template === false ? null : await versionForReport(ctx.db, report, ctx.now());
  return version ? applyVersion(ctx.db, ctx.config, m, version) : m;
}

/** The PHQ-9 total's level and item 9 of each result in the trend (item 9 is in each report's answers). */
async function phq9History(ctx: Ctx, report: ReportDetail): Promise<Phq9Point[]> {
  const points: Phq9Point[] = [];
  for (const t of report.trend) {
    const d = t.reportid === report.reportid ? report : await reportDetail(ctx, t.reportid);
    const total = d.indicators.find((i) => i.kind === 'total') ?? d.indicators[0];
    points.push({
      reportid: t.reportid,
      createdat: t.createdat,
      score: total?.score ?? null,
      level: total?.level ?? null,
      item9: d.answers.find((a) => a.no === 9)?.score ?? null,
    });
  }
  return points;
}
