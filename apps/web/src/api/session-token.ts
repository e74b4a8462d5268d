import Cookies from 'js-cookie';

/** The auth token lives in a cookie (SPEC §9), readable by the console, sent as the `token` header. */
export const TOKEN_COOKIE = 'token';

export const getToken = (): string | undefined => Cookies.get(TOKEN_COOKIE) || undefined;
export const setToken = (token: string) => Cookies.set(TOKEN_COOKIE, token, { sameSite: 'Strict' });
export const removeToken = () => Cookies.remove(TOKEN_COOKIE);
