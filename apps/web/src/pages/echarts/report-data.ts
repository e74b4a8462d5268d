/**
 * Pure helpers of the report page: where a report link goes, the trend series of a person's
 * earlier results of one form, and printing a server-made document through a hidden iframe.
 */
import type { LocalText, ReportDetail } from '@xinli/contract';

/** The report page of one report (the hidden /echarts/web route). */
export const reportLink = (reportid: string) => `/echarts/web?reportid=${encodeURIComponent(reportid)}`;

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

/**
 * Prints an HTML document (the server's A4 report document) without leaving the page: a hidden
 * iframe gets it as `srcdoc`, and once loaded its own print() opens the browser's print dialog
 * for that document only. The frame is removed after printing (or after a minute, if the
 * browser never says).
 */
export function printHtml(html: string, doc: Document = document): Promise<void> {
  return new Promise((resolve, reject) => {
    const frame = doc.createElement('iframe');
    frame.setAttribute('aria-hidden', 'true');
    frame.setAttribute('data-testid', 'report-print-frame');
    frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden';
    const cleanup = () => setTimeout(() => frame.remove(), 60_000);
    frame.onload = () => {
      const win = frame.contentWindow;
      if (!win) return reject(new Error('no print frame'));
      win.addEventListener('afterprint', () => frame.remove(), { once: true });
      try {
        win.focus();
        win.print();
        resolve();
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
      cleanup();
    };
    frame.srcdoc = html;
    doc.body.appendChild(frame);
  });
}
