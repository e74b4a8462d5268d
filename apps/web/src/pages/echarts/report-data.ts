/**
 * Pure helpers of the report page: the trend series of a person's earlier results of one form,
 * and whether a form is the PHQ-9. Its link is in features/links.ts, printing in features/reports.
 */
import type { LocalText, ReportDetail } from '@xinli/contract';

export interface TrendSeries {
  code: string;
  title: string;
  points: { time: string; score: number; level: number | null; colour: string | null }[];
}

type TrendInput = Pick<ReportDetail, 'indicators' | 'trend'>;

/**
 * One series per indicator of this report over the person's results of the same form (the
 * server's `trend`, oldest first, up to this report), in the report's indicator order; an
 * indicator an earlier version did not have simply has fewer points.
 */
export function trendOf(report: TrendInput, name: (n: LocalText) => string): TrendSeries[] {
  const points = [...report.trend].sort((a, b) => a.createdat.localeCompare(b.createdat));
  return report.indicators.map((i) => ({
    code: i.code,
    title: name(i.name),
    points: points.flatMap((p) => {
      const hit = p.indicators.find((x) => x.quotacode === i.code);
      return hit ? [{ time: p.createdat, score: hit.score, level: hit.level, colour: hit.colour }] : [];
    }),
  }));
}

/**
 * True when the form is the PHQ-9 (or PHQ-A, the adolescent PHQ-9): its levels chart and item-9
 * history are shown. A copy of the form keeps the name, so the name counts as well as the code.
 */
export const isPhq9 = (formcode: string, formname = '') => /^phq-?(9|a)\b/i.test(formcode) || /phq-?(9|a)\b/i.test(formname);
