/**
 * Calendar arithmetic on `YYYY-MM-DD` strings (China calendar days, as todayIn answers them; no
 * time zone is involved once a day is a string).
 */

const DAY_MS = 86_400_000;
const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const addDays = (day: string, n: number) => fromMs(toMs(day) + n * DAY_MS);
export const daysBetween = (from: string, to: string) => Math.round((toMs(to) - toMs(from)) / DAY_MS);
export const monthOf = (day: string) => `${day.slice(0, 7)}-01`;

/** The first day of the month `n` months after the month of `day`. */
export function addMonths(day: string, n: number): string {
  const d = new Date(toMs(monthOf(day)));
  d.setUTCMonth(d.getUTCMonth() + n);
  return fromMs(d.getTime());
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Every month (`YYYY-MM`) from the month of `from` to the month of `to`. */
export function eachMonth(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = monthOf(from); m <= to; m = addMonths(m, 1)) out.push(m.slice(0, 7));
  return out;
}
