import { expect, test, type Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { md5Upper, pick, shootInBothLanguages, signIn } from './support';

/**
 * The audit log page (issue 30 §2) end to end: a wrong password for the school's account is
 * recorded; the school's staff open the audit log, filter by outcome, open the entry (its detail
 * names the sign-in name, never the password), export the list (a workbook with readable action
 * titles, and the export itself then appears in the log) and verify the hash chain. Shots at 1024
 * and 1440 px in zh and en, and the empty state, go to audit-shots/.
 */
const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'audit-shots');
const ROUTE = '/authority/auditLog';

async function rowsShown(page: Page) {
  await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
}

test('the audit log is filtered, an entry opened, the list exported and the chain verified', async ({ page, request }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(shots, { recursive: true });
  const wrong = await request.post('/api/as.m.user.login/1.0.0/action', { data: { username: 'school', pwd: md5Upper('not the password') } });
  expect((await wrong.json()).errorCode).not.toBe(0);

  await signIn(page, 'school');
  await shootInBothLanguages(page, {
    url: ROUTE,
    dir: shots,
    name: 'audit',
    fullPage: false,
    ready: async () => {
      await rowsShown(page);
      // Action names are shown as titles in the page's language, never as raw identifiers.
      await expect(page.getByTestId('audit-action').first()).not.toContainText('as.m.');
    },
  });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Filter: the failed sign-in.
  await page.goto(ROUTE);
  await rowsShown(page);
  const search = page.getByTestId('list-search');
  await pick(page, search.locator('.ant-form-item', { hasText: '结果' }), '失败', { exact: true });
  await search.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(page).toHaveURL(/result=fail/);
  const rows = page.locator('tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('登录');
  await expect(rows.first()).toContainText('失败');

  // Detail: the sign-in name, its hashes; never the password.
  await rows.first().getByRole('button', { name: '详情' }).or(rows.first().getByText('详情')).first().click();
  const drawer = page.getByTestId('audit-drawer');
  await expect(drawer.getByTestId('audit-detail')).toContainText('"username": "school"');
  await expect(drawer).toContainText('as.m.user.login');
  await expect(drawer).not.toContainText(md5Upper('not the password'));
  await page.screenshot({ path: path.join(shots, 'audit-detail-zh-CN-1440.png') });
  await drawer.locator('.ant-drawer-close').click();

  // Export the filtered list: a workbook with the entry, its action in words.
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('audit-export').click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await file.path())!);
  const sheet: unknown[][] = [];
  wb.worksheets[0]!.eachRow((r) => sheet.push((r.values as unknown[]).slice(1)));
  expect(sheet[0]).toContain('操作');
  expect(sheet).toHaveLength(2);
  expect(sheet[1]).toContain('登录');
  expect(sheet[1]).toContain('失败');

  // The export is itself in the log.
  await page.goto(`${ROUTE}?action=as.m.audit.exportAudit`);
  await rowsShown(page);
  await expect(page.locator('tr.ant-table-row').first()).toContainText('审计日志 · 导出');

  // Verify the chain.
  await page.getByTestId('audit-verify').click();
  await expect(page.getByTestId('audit-verify-result')).toContainText('哈希链完整');
  await page.screenshot({ path: path.join(shots, 'audit-verified-zh-CN-1440.png') });

  // The empty state.
  await page.goto(`${ROUTE}?ip=203.0.113.`);
  await expect(page.locator('.ant-empty').first()).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'audit-empty-zh-CN-1440.png') });
});
