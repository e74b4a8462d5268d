/**
 * Pure helpers of the report page: where a report link goes, the trend series of a person's
 * earlier results of one form, and printing a server-made document through a hidden iframe.
 */
import type { PersonReport } from '@xinli/contract';

/** The report page of one report (the hidden /echarts/web route). */
export const reportLink = (reportid: string) => `/echarts/web?reportid=${encodeURIComponent(reportid)}`;

export interface TrendSeries {
  code: string;
  title: string;
  points: { time: string; score: number; level: number | null; colour: string }[];
}

/**
 * One series per indicator over the person's reports of `formcode` made up to and including
 * this report (a later report is not "earlier"), oldest first; the total indicators first.
 */
export function trendOf(reports: PersonReport[], formcode: string, until: string): TrendSeries[] {
  const series = new Map<string, TrendSeries>();
  const mine = reports.filter((r) => r.formcode === formcode && r.createdat <= until).sort((a, b) => a.createdat.localeCompare(b.createdat));
  for (const r of mine) {
    for (const i of r.indicators) {
      const s = series.get(i.code) ?? { code: i.code, title: i.name, points: [] };
      s.points.push({ time: r.createdat, score: i.score, level: i.level, colour: i.colour });
      series.set(i.code, s);
    }
  }
  return [...series.values()];
}

/** True when the form is the PHQ-9 (its levels chart and item-9 history are shown). */
export const isPhq9 = (formcode: string) => /^phq-?9$/i.test(formcode);

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
