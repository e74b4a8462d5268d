/**
 * Time on the wire (SPEC §7): instants are ISO 8601 strings in UTC; calendar dates that people
 * choose (authorisation start and end) are `YYYY-MM-DD` in China's time zone.
 */
import { INSTITUTION_TIME_ZONE, timeInZone } from '@xinli/contract';

/** An instant as the contract's outputs carry it: `2026-05-01T08:00:00.000Z`. */
export function iso(at: Date | string): string {
  return (at instanceof Date ? at : new Date(at)).toISOString();
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The time zone of calendar dates and printed times: the institution's, one for the whole product. */
export const CALENDAR_TIME_ZONE = INSTITUTION_TIME_ZONE;

/** The calendar date in China at an instant, `YYYY-MM-DD` (pass ctx.now(), never the wall clock). */
export function todayIn(now: Date): string {
  // timeInZone's formatter is made once: toLocaleDateString with a time zone builds one per call
  // (about 20 µs; a screening's submission asked for the date several times).
  return timeInZone(now, CALENDAR_TIME_ZONE).slice(0, 10);
}
