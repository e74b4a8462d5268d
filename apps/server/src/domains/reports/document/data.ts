import type { ReportDetail } from '@xinli/contract';
import type { Ctx } from '../../../http/context.js';
import { iso } from '../../../kit/index.js';
import { reportHandlers, reportsOfPerson } from '../../assessments/reports.js';
import { personBriefs } from '../../persons/persons.js';
import type { DocumentModel, Phq9Point } from './model.js';

/**
 * Gathers what the printable report shows, through the functions the reports, persons and
 * accounts domains export. The read of the report itself is scoped (another institution's
 * report is "not found").
 */

/** One report in the caller's scope, in the caller's language. */
async function detail(ctx: Ctx, reportid: string): Promise<ReportDetail> {
  // TODO(h12-server merge): reportDetail(ctx, reportid) from domains/reports.
  return (await reportHandlers['as.m.exam.getCUserReport']({ reportid }, ctx)) as ReportDetail;
}

/** Whole years between a birth date (YYYY-MM-DD) and a China calendar date. */
export function ageAt(birthdate: string | null | undefined, on: string): number | null {
  if (!birthdate || !/^\d{4}-\d{2}-\d{2}$/.test(birthdate)) return null;
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = on.split('-').map(Number) as [number, number, number];
  const age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  return age >= 0 && age < 150 ? age : null;
}

const chinaDate = (instant: string) => new Date(Date.parse(instant) + 8 * 3_600_000).toISOString().slice(0, 10);

export async function documentModel(ctx: Ctx, reportid: string): Promise<DocumentModel> {
  const report = await detail(ctx, reportid);
  const [persons, history] = await Promise.all([
    personBriefs(ctx.db, [report.cusercode]),
    reportsOfPerson(ctx.db, report.cusercode, ctx.lang),
  ]);
  const person = persons.get(report.cusercode);
  const at = Date.parse(report.createdat);
  const trend = history.filter((h) => h.formcode === report.formcode && Date.parse(h.createdat) <= at);
  return {
    lang: ctx.lang,
    institution: { name: report.insname, logo: null },
    report,
    person: { realname: report.realname, gender: report.gender, age: ageAt(person?.birthdate, chinaDate(report.createdat)) },
    trend,
    phq9: report.formcode === 'PHQ9' ? await phq9History(ctx, report, trend) : null,
    comments: [],
    printedat: iso(ctx.now()),
  };
}

/** The PHQ-9 total's level and item 9 of each result in the trend (item scores need each report's answers). */
async function phq9History(ctx: Ctx, report: ReportDetail, trend: DocumentModel['trend']): Promise<Phq9Point[]> {
  const points: Phq9Point[] = [];
  for (const t of trend) {
    const d = t.reportid === report.reportid ? report : await detail(ctx, t.reportid);
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
