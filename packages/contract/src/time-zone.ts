/**
 * One time zone everywhere (issue 28 item 12): the console, exports, PDFs, file names and AI
 * texts all show times in the institution's zone, never the browser's. Institutions are in China
 * today, so the zone is one constant; the user record carries it so the console never assumes.
 */
export const INSTITUTION_TIME_ZONE = 'Asia/Shanghai';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    // sv-SE writes "2026-11-25 09:30:05": ISO order, 24 hours.
    f = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** An instant as "YYYY-MM-DD HH:mm" (or with seconds) in `zone`; the input unchanged when it is no time. */
export function timeInZone(at: string | Date, zone: string = INSTITUTION_TIME_ZONE, seconds = false): string {
  const d = at instanceof Date ? at : new Date(at);
  if (Number.isNaN(d.getTime())) return String(at);
  const s = formatter(zone).format(d).replace('T', ' ');
  return seconds ? s : s.slice(0, 16);
}

/** The zone's offset at an instant, as "UTC+8" (or "UTC-5", "UTC+5:30"): said next to a time where it matters. */
export function zoneLabel(zone: string = INSTITUTION_TIME_ZONE, at: Date = new Date(0)): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return (part ?? 'GMT').replace('GMT', 'UTC').replace(/[+-]0$/, '');
}
