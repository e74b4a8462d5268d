/**
 * The respondent page of an assessment code as a full link. The server answers the path of the
 * respondent entry for each code (`url`, e.g. `/a/<assesscode>`); the console only puts its own
 * origin in front, so the link works wherever the console is served.
 */
export function respondentLink(url: string, origin = window.location.origin): string {
  return /^https?:\/\//.test(url) ? url : `${origin}${url.startsWith('/') ? '' : '/'}${url}`;
}
