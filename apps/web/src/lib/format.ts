import { INSTITUTION_TIME_ZONE, timeInZone, zoneLabel } from '@xinli/contract';

/**
 * Every time the console shows is in the institution's zone (the signed-in user record says
 * which), never the browser's: the same times as the exports and PDFs (issue 28 item 12).
 */
let zone = INSTITUTION_TIME_ZONE;

/** Set by the session when a user record arrives; an older stored record without one keeps the default. */
export function setTimeZone(next: string | undefined | null) {
  zone = next || INSTITUTION_TIME_ZONE;
}

export const currentTimeZone = () => zone;

/** Renders an ISO time as "YYYY-MM-DD HH:mm" in the institution's zone. */
export function formatTime(iso: string, seconds = false): string {
  return timeInZone(iso, zone, seconds);
}

/** The zone's offset ("UTC+8"), said next to times where a reader elsewhere could misread them. */
export const timeZoneLabel = () => zoneLabel(zone);
