/**
 * Undoing a burst of QR-link registrations (issue 27 item 4): persons registered through the
 * hospital's QR link, some answering the critical item, appear per hour on the archives page;
 * staff undo the hour after a confirmation that names the count, and the persons are gone.
 * Screenshots at 1024 and 1440 px in zh and en go to link-entries-shots/.
 */
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { agreeNoticeByApi, apiCall, apiSignIn, setLanguage, signIn } from './support';

const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'link-entries-shots');
const CRITICAL = [...Array.from({ length: 8 }, (_, i) => ({ no: i + 1, option: 1 })), { no: 9, option: 3 }];

test('staff see the QR registrations of an hour and undo them after a confirmation naming the count', async ({ page, request }) => {
  test.setTimeout(180_000);
  const provider = await apiSignIn(request, 'provider');
  // The hospital's entry offers the maternity app; it keeps the title the demo gave it, which
  // e2e/respondent-entry.spec.ts (run later) expects to find.
  const seeded = (await apiCall(request, 'as.m.user.getMUserClient', { musercode: 'I0002' }, provider.token)).data as { title: string };
  const made = await apiCall(request, 'as.m.user.createMUserClient', { musercode: 'I0002', title: seeded.title, appids: ['000000001'] }, provider.token);
  expect(made.errorCode, made.errorMsg).toBe(0);
  const entrytoken = String((made.data as { qrcodeurl: string }).qrcodeurl).split('/r/')[1]!;
  for (let i = 0; i < 5; i++) {
    const entered = await apiCall(request, 'as.c.exam.enter', {
      entrytoken,
      appid: '000000001',
      stagecode: 'ST-M1',
      realname: `刷屏者${i}`,
      gender: '02',
    });
    expect(entered.errorCode, entered.errorMsg).toBe(0);
    if (i < 3) {
      const token = (entered.data as { token: string }).token;
      await agreeNoticeByApi(request, token);
      const res = await request.post('/api/as.c.exam.submit/1.0.0/action', {
        data: { formcode: 'PHQ9', answers: CRITICAL },
        headers: { token },
      });
      expect((await res.json()).errorCode).toBe(0);
    }
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'hospital', { path: '/archives/archives_gl_all' });
  await page.getByTestId('link-entries-open').click();
  const dialog = page.getByTestId('link-entries');
  const row = dialog.locator('tr.ant-table-row').first();
  await expect(row).toContainText('5');
  await expect(row.locator('.ant-tag')).toHaveText('3');

  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/archives/archives_gl_all');
      await page.getByTestId('link-entries-open').click();
      await expect(dialog.locator('tr.ant-table-row').first()).toBeVisible();
      await page.screenshot({ path: path.join(shots, `dialog-${lang}-${width}.png`) });
      await dialog.locator('tr.ant-table-row').first().getByRole('button').click();
      const confirm = page.locator('.ant-modal-confirm');
      await expect(confirm).toContainText(lang === 'zh-CN' ? '5 人' : '5 persons');
      await expect(confirm).toContainText(lang === 'zh-CN' ? '3 个预警个案' : '3 warning cases');
      await page.screenshot({ path: path.join(shots, `confirm-${lang}-${width}.png`) });
      await confirm.getByRole('button', { name: lang === 'zh-CN' ? /取\s*消/ : /Cancel/ }).click();
      await expect(confirm).toBeHidden();
    }
  }

  await setLanguage(page, 'zh-CN');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/archives/archives_gl_all');
  await expect(page.locator('tr', { hasText: '刷屏者0' })).toBeVisible();
  await page.getByTestId('link-entries-open').click();
  await dialog.locator('tr.ant-table-row').first().getByRole('button').click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('将删除');
  await confirm.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.locator('.ant-message')).toContainText('已撤销 5 人');
  // The hour now shows 5 undone and offers no undo; the archive list no longer holds them.
  await expect(dialog.locator('tr.ant-table-row').first().getByRole('button')).toHaveCount(0);
  await page.screenshot({ path: path.join(shots, 'after-zh-CN-1440.png') });
  await dialog.locator('.ant-modal-close').click();
  await expect(page.locator('tr', { hasText: '刷屏者0' })).toHaveCount(0);
});
