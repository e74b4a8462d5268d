import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCall, apiSignIn, setProviderWebsite, signIn } from './support';

/**
 * Issue 28 item 1: the respondent entry dialog saves with its "show result" switch on and off
 * (the switch gives true/false, the action takes 0/1), and every demo institution already has
 * its entry, so its link and QR code are there on first start.
 */
const SHOTS = path.join(os.tmpdir(), 'xinli-respondent-entry-shots');
const PHONE = { width: 390, height: 844 };

test('a provider opens an institution’s seeded entry, saves it with the result switch on and off, and its link opens on a phone', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const { token } = await apiSignIn(request, 'provider');
  const entry = async () => (await apiCall(request, 'as.m.user.getMUserClient', { musercode: 'I0002' }, token)).data as { showresult: number; hotline: string };

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'provider', { path: '/Service/terminal' });
  const row = page.locator('.ant-table-row', { hasText: '仁和妇幼保健院' });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByTestId('account-client-hospital').click();
  const dialog = page.getByTestId('client-dialog');
  // The demo's entry: its title, its link and QR code, before anything is saved.
  await expect(dialog.getByTestId('client-title')).toHaveValue('仁和妇幼保健院心理测评');
  const link = (await dialog.getByTestId('client-link').innerText()).trim();
  expect(link).toMatch(/\/r\/[A-Za-z0-9_-]{20,}$/);
  await expect(dialog.getByTestId('client-showresult')).toHaveAttribute('aria-checked', 'false');
  await page.screenshot({ path: path.join(SHOTS, 'entry-dialog-zh-1440.png') });

  // Switch on, a hotline of its own: saved, the dialog closes, no field message.
  await dialog.getByTestId('client-showresult').click();
  await dialog.getByPlaceholder(/热线/).fill('0571-88886666');
  await dialog.getByRole('button', { name: '确 定' }).click();
  await expect(dialog).toBeHidden();
  expect(await entry()).toMatchObject({ showresult: 1, hotline: '0571-88886666' });

  // Opened again it shows what was saved; switched off, that is saved too.
  await row.getByTestId('account-client-hospital').click();
  await expect(dialog.getByTestId('client-showresult')).toHaveAttribute('aria-checked', 'true');
  await dialog.getByTestId('client-showresult').click();
  await dialog.getByRole('button', { name: '确 定' }).click();
  await expect(dialog).toBeHidden();
  expect(await entry()).toMatchObject({ showresult: 0 });

  // The link the dialog showed opens the institution's entry on a phone.
  const phone = await browser.newContext({ viewport: PHONE, locale: 'zh-CN' });
  const respondent = await phone.newPage();
  await respondent.goto(new URL(link).pathname);
  await expect(respondent.getByText('仁和妇幼保健院心理测评').first()).toBeVisible();
  await expect(respondent.getByTestId('r-error')).toHaveCount(0);
  await respondent.screenshot({ path: path.join(SHOTS, 'entry-phone-zh.png'), fullPage: true });
  await phone.close();
});

/** Issue 28 item 14: the navbar's website button opens the provider's own site, and is absent without one. */
test('the website button shows only once the provider has its own site, and opens that site', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const provider = await (await browser.newContext()).newPage();
  await signIn(provider, 'provider');
  await expect(provider.getByTestId('navlink-bigscreen')).toBeVisible();
  await expect(provider.getByTestId('navlink-website')).toHaveCount(0);

  await signIn(page, 'admin', { path: '/Service/usersManager' });
  const row = page.locator('.ant-table-row', { hasText: '安心心理服务有限公司' });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByTestId('account-edit-provider').click();
  const form = page.getByTestId('account-form');
  await form.getByTestId('account-website').fill('http://anxin-xinli.cn');
  await page.getByRole('dialog').getByRole('button', { name: '确 定' }).click();
  await expect(form.getByText('请输入 https:// 开头的网址；不填则不显示官网按钮')).toBeVisible();
  await form.getByTestId('account-website').fill('https://anxin-xinli.cn/');
  await page.getByRole('dialog').getByRole('button', { name: '确 定' }).click();
  await expect(form).toBeHidden();

  // The button comes with the user record: the provider's next sign-in has it.
  await provider.context().close();
  const again = await (await browser.newContext()).newPage();
  await signIn(again, 'provider');
  await expect(again.getByTestId('navlink-website')).toHaveAttribute('href', 'https://anxin-xinli.cn/');
  await again.context().close();
  // Back to the demo's state, for the files that run after this one.
  await setProviderWebsite(request, '');
});
