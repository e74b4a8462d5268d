/**
 * The part of the session the sign-in page needs, kept apart from auth/session.tsx so the
 * sign-in page loads without the console (its router, query cache, menu table and antd).
 */
import type { UserRecord } from '@xinli/contract';
import { setToken } from '../api/session-token';
import { MARKER_KEY, PERMISSIONS_KEY, USER_KEY, store, writeJson } from './storage';

/** Stores a user record answered by as.m.user.login or as.m.user.loginAs (SPEC §4). */
export function storeSignIn(record: UserRecord) {
  const { token, ...user } = record;
  setToken(token);
  writeJson(USER_KEY, user);
  writeJson(PERMISSIONS_KEY, user.roles);
  store().setItem(MARKER_KEY, user.loginasmarker ?? '');
  return user;
}

/**
 * Set by sign-out until the sign-in page shows: sign-out goes to plain /login, not to
 * /login?redirect=<the page the last user was on> (the next user may not open that page).
 */
let signedOut = false;
export const justSignedOut = () => signedOut;
export const markSignedOut = () => {
  signedOut = true;
};
export const clearSignedOut = () => {
  signedOut = false;
};
