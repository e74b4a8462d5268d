import Cookies from 'js-cookie';

/** The auth token lives in a cookie (SPEC §9), readable by the console, sent as the `token` header. */
export const TOKEN_COOKIE = 'token';

/**
 * A login-as tab (auth/acting.ts) keeps its whole session, token included, in this tab's
 * session storage under this prefix: the cookie and local storage are shared by every tab, and
 * they stay the provider's own, so the provider's tab keeps working while it acts in another.
 */
export const ACTING_PREFIX = 'actingAs.';
const ACTING_TOKEN = `${ACTING_PREFIX}token`;

/** Whether this browser tab is a login-as tab. */
export const isActingTab = (): boolean => typeof sessionStorage !== 'undefined' && sessionStorage.getItem(ACTING_TOKEN) !== null;

export const getToken = (): string | undefined => (isActingTab() ? sessionStorage.getItem(ACTING_TOKEN)! : Cookies.get(TOKEN_COOKIE)) || undefined;
export const setToken = (token: string) => (isActingTab() ? sessionStorage.setItem(ACTING_TOKEN, token) : Cookies.set(TOKEN_COOKIE, token, { sameSite: 'Strict' }));
/** In a login-as tab, ends the tab's whole acting session (the tab is the provider's again). */
export const removeToken = () => (isActingTab() ? clearActing() : Cookies.remove(TOKEN_COOKIE));

export function clearActing() {
  for (const key of Object.keys(sessionStorage)) if (key.startsWith(ACTING_PREFIX)) sessionStorage.removeItem(key);
}

/** Turns this tab into a login-as tab with the given token. */
export const setActingToken = (token: string) => sessionStorage.setItem(ACTING_TOKEN, token);
