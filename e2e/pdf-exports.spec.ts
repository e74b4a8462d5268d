import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { setLanguage, signIn } from './support';
import { pick } from './support/select';

/**
 * The report list's PDF zip above 20 reports (issue 27 item 9): the button queues a background
 * export and opens the list of the caller's exports, which shows its progress; cancelling stops it.
 * Screenshots of the drawer at 1024 and 1440 px in both languages.
 */
const SHOTS = path.join(os.tmpdir(), 'xinli-pdf-exports-shots');

async function queueAndCancel(page: Page, lang: 'zh' | 'en', width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.goto('/empower/usersReport');
  await expect(page.getByTestId('report-stage-tabs')).toBeVisible({ timeout: 90_000 });
  // Reports with a warning: more than 20 (a background export) and fewer than 500.
  const warning = page.locator('.ant-form-item').filter({ hasText: lang === 'zh' ? /^预警/ : /^Warning/ }).locator('.ant-select');
  await pick(page, warning, lang === 'zh' ? '是' : 'Yes', { exact: true });
  const listed = page.waitForResponse((r) => r.url().includes('as.m.exam.getCUserReportPageList') && r.request().postData()!.includes('"warning":1'));
  await page.locator('button[type=submit]').first().click();
  await listed;
  await page.getByTestId('export-pdf-zip-queue').click();
  const drawer = page.getByTestId('pdf-exports-drawer');
  await expect(drawer).toBeVisible();
  const item = drawer.locator('[data-testid^="pdf-export-RX"]').first();
  await expect(item).toContainText(lang === 'zh' ? /排队中|生成中/ : /Queued|Printing/);
  await page.screenshot({ path: path.join(SHOTS, `drawer-${lang}-${width}.png`) });
  await item.locator('[data-testid^="pdf-export-cancel-"]').click();
  await expect(item).toContainText(lang === 'zh' ? '已取消' : 'Cancelled');
  await page.keyboard.press('Escape');
}

test.describe('background PDF exports', () => {
  test.describe.configure({ timeout: 300_000 });

  test('queues a large zip, shows its progress and cancels it, in Chinese and English', async ({ page }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await signIn(page, 'school');
    await queueAndCancel(page, 'zh', 1024);
    await queueAndCancel(page, 'zh', 1440);
    await setLanguage(page, 'en-US');
    await queueAndCancel(page, 'en', 1024);
    await queueAndCancel(page, 'en', 1440);
    await expect(page.locator('body')).not.toContainText('empower.report.zip');
  });
});
