/**
 * Where a respondent answers: the respondent channel's own entry, served by the same server.
 * An assessment code travels in the link so a scan of the slip's QR code opens the right sheet.
 * (One place: the respondent entry's path is decided by the respondent channel.)
 */
export const RESPONDENT_PATH = '/r/';

export function respondentLink(assesscode: string, origin = window.location.origin): string {
  return `${origin}${RESPONDENT_PATH}?code=${encodeURIComponent(assesscode)}`;
}
