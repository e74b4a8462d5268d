import { INSTITUTION_TIME_ZONE, timeInZone } from '@xinli/contract';

/**
 * What every printable document shares (a report, a person's record): escaping of user text, the
 * institution's wall-clock time, and the A4 print style. Infrastructure below the domains, so a
 * domain that prints does not import the reports domain for it.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string | number | null | undefined): string => String(s ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** An instant as the institution's wall-clock time (the console shows the same, issue 28 item 12). */
export function chinaTime(isoInstant: string, withTime = true): string {
  const t = timeInZone(isoInstant, INSTITUTION_TIME_ZONE);
  return withTime ? t : t.slice(0, 10);
}

export const CSS = `
@page { size: A4; margin: 16mm 14mm 18mm 14mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; color: #1f2937; font: 10.5pt/1.55 "Noto Sans CJK SC", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", "Helvetica Neue", Arial, sans-serif; }
@media screen { body { background: #e5e7eb; } .doc { width: 210mm; margin: 12px auto; padding: 16mm 14mm; background: #fff; box-shadow: 0 1px 4px rgba(0,0,0,.15); } }
h1 { font-size: 18pt; margin: 0; letter-spacing: .04em; }
h2 { font-size: 13pt; margin: 18px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #1f5fa8; color: #1f5fa8; break-after: avoid; page-break-after: avoid; }
h3 { font-size: 10.5pt; margin: 8px 0 2px; break-after: avoid; page-break-after: avoid; }
.masthead { display: flex; align-items: center; gap: 12px; padding-bottom: 10px; border-bottom: 1px solid #9ca3af; }
.masthead img { height: 44px; max-width: 140px; object-fit: contain; }
.masthead .ins { font-size: 12pt; font-weight: 600; }
.masthead .sub { color: #6b7280; font-size: 9pt; }
.masthead .titles { flex: 1; }
.masthead .right { text-align: right; color: #6b7280; font-size: 9pt; }
.section { break-inside: auto; }
.new-page { break-before: page; page-break-before: always; }
table { width: 100%; border-collapse: collapse; margin: 6px 0 10px; }
thead { display: table-header-group; }
tr, .keep { break-inside: avoid; page-break-inside: avoid; }
th, td { border: 1px solid #d1d5db; padding: 4px 6px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f3f4f6; font-weight: 600; }
table.info th { width: 16%; white-space: nowrap; }
table.info td { width: 34%; }
td.num, th.num { text-align: right; white-space: nowrap; width: 1%; }
.chip { display: inline-block; min-width: 3.2em; padding: 0 6px; border-radius: 3px; color: #fff; font-weight: 600; text-align: center; white-space: nowrap; }
.dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 4px; vertical-align: baseline; }
.state { display: flex; gap: 24px; align-items: center; padding: 8px 10px; border: 1px solid #d1d5db; border-radius: 4px; }
.state .big { font-size: 13pt; font-weight: 700; }
.alert { border-left: 4px solid #9b1c1c; background: #fef2f2; padding: 6px 10px; margin: 8px 0; }
.void { border: 2px solid #9b1c1c; color: #9b1c1c; padding: 6px 10px; font-weight: 700; margin: 8px 0; }
.ind { border: 1px solid #e5e7eb; border-left-width: 5px; padding: 6px 10px; margin: 8px 0; break-inside: avoid; page-break-inside: avoid; }
.ind .head { display: flex; justify-content: space-between; font-weight: 600; }
.ind p { margin: 3px 0; }
.label { color: #6b7280; }
.chart { break-inside: avoid; page-break-inside: avoid; margin: 4px 0 8px; }
.chart svg { width: 100%; height: auto; }
.muted { color: #6b7280; }
.note { font-size: 9pt; color: #6b7280; margin: 4px 0 0; }
.comment { border: 1px solid #e5e7eb; padding: 6px 10px; margin: 6px 0; break-inside: avoid; page-break-inside: avoid; white-space: pre-wrap; }
.comment .by { color: #6b7280; font-size: 9pt; white-space: normal; }
`;

/** Page numbers for the browser's print preview (Chromium's PDFs draw their own footer instead). */
export const PAGE_NUMBER_CSS = `@page { @bottom-center { content: counter(page) " / " counter(pages); font-size: 8pt; color: #6b7280; } }`;
