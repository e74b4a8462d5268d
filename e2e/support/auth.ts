import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { createHash } from 'node:crypto';

/** Demo accounts (apps/server/src/seed/demo.ts); all share this password. */
export const DEMO_PASSWORD = 'demo123';
export type DemoAccount = 'admin' | 'provider' | 'school' | 'hospital' | 'eldercare' | 'warning' | 'bureau' | 'teacher' | 'schooladmin';

export const md5Upper = (s: string) => createHash('md5').update(s).digest('hex').toUpperCase();

/** Fills the sign-in form and submits it (the page must be on /login). */
export async function fillSignIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Demo accounts that see the app-selection dialog after sign-in (not exempt, SPEC §6). */
export const APP_DIALOG_ACCOUNTS = ['provider', 'eldercare'];

/**
 * Signs in through the sign-in page and waits for the main layout: on `path` when given (the page
 * a signed-out user asked for, as /login?redirect= does), else on the account's landing page. A
 * test that works on one page passes it, rather than loading the console again after the landing
 * page has drawn (about 1 s of CPU a test on the 2-core machine). The app-selection dialog
 * (provider and eldercare accounts) is closed by choosing the first app unless `keepAppDialog` is set.
 */
export async function signIn(
  page: Page,
  username: DemoAccount | string,
  options: { password?: string; keepAppDialog?: boolean; path?: string } = {},
) {
  await page.goto(options.path ? `/login?redirect=${encodeURIComponent(options.path)}` : '/login');
  await fillSignIn(page, username, options.password ?? DEMO_PASSWORD);
  await expect(page.getByTestId('main-layout')).toBeVisible();
  if (!options.keepAppDialog && APP_DIALOG_ACCOUNTS.includes(username)) {
    const dialog = page.getByTestId('app-dialog');
    await dialog.getByTestId('app-start').click();
    await expect(dialog).toBeHidden();
  }
}

/** Signs in through the API; answers the user record (token included). */
export async function apiSignIn(request: APIRequestContext, username: string, password = DEMO_PASSWORD) {
  const res = await request.post('/api/as.m.user.login/1.0.0/action', { data: { username, pwd: md5Upper(password) } });
  const body = await res.json();
  expect(body.errorCode, body.errorMsg).toBe(0);
  return body.data as { token: string; musercode: string; roles: string[] };
}

/** Calls an action with a token through the API (no browser). */
export async function apiCall(request: APIRequestContext, name: string, data: unknown, token?: string) {
  const res = await request.post(`/api/${name}/1.0.0/action`, { data, headers: token ? { token } : {} });
  return (await res.json()) as { errorCode: number; errorMsg: string; data: unknown };
}

/** The token cookie of the page's context. */
export async function tokenOf(page: Page): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === 'token')?.value;
}

/** The demo provider's own web site (its navbar's website button), set by the platform's admin; '' for none. */
export async function setProviderWebsite(request: APIRequestContext, website: string) {
  const { musercode } = await apiSignIn(request, 'provider');
  const { token } = await apiSignIn(request, 'admin');
  const out = await apiCall(request, 'as.m.user.updateMUser', { musercode, website }, token);
  expect(out.errorCode, out.errorMsg).toBe(0);
}
