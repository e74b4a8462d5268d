import { addDays, addMonths, monthOf } from '../../kit/index.js';

/** The split of a date range into the aggregate rows (tables.ts) that answer it. */

/** Aggregate rows of one grain whose period lies in [from, to] (either end open when undefined). */
export interface Span {
  grain: 'd' | 'm';
  from?: string;
  to?: string;
}

/**
 * The fewest aggregate rows that cover a range of days exactly: the whole months inside it from
 * the monthly rows, the partial months at either end from the daily rows. No range: every month.
 */
export function spansOf(start?: string, end?: string): Span[] {
  const firstWhole = start === undefined ? undefined : start === monthOf(start) ? start : addMonths(start, 1);
  const lastWhole = end === undefined ? undefined : addDays(addMonths(end, 1), -1) === end ? monthOf(end) : addMonths(end, -1);
  if (firstWhole !== undefined && lastWhole !== undefined && firstWhole > lastWhole) return [{ grain: 'd', from: start, to: end }];
  const spans: Span[] = [{ grain: 'm', from: firstWhole, to: lastWhole }];
  if (start !== undefined && start !== firstWhole) spans.unshift({ grain: 'd', from: start, to: addDays(firstWhole!, -1) });
  if (end !== undefined && lastWhole !== undefined && end !== addDays(addMonths(lastWhole, 1), -1))
    spans.push({ grain: 'd', from: addMonths(lastWhole, 1), to: end });
  return spans;
}
