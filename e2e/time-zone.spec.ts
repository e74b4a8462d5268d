import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiCall, apiSignIn, signIn } from './support';

/**
 * Issue 28 item 12: one time zone everywhere. A browser in New York shows the report times of
 * the institution's zone (China), the same times as the report export.
 */
test.use({ timezoneId: 'America/New_York' });

test('a browser in another time zone shows the institution’s times, the same as the export', async ({ page, request }) => {
  test.setTimeout(300_000);
  const staff = await apiSignIn(request, 'school');
  const res = await apiCall(request, 'as.m.exam.getCUserReportPageList', { appid: '000000002', page: 1, pageSize: 1 }, staff.token);
  expect(res.errorCode, res.errorMsg).toBe(0);
  const report = (res.data as { rows: { reportid: string; realname: string; createdat: string }[] }).rows[0]!;

  await signIn(page, 'school');
  // The browser really is in New York: its own clock reads differently from China's.
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/New_York');
  await page.goto('/empower/usersReport');
  await expect(page.getByTestId('report-stage-tabs')).toBeVisible({ timeout: 90_000 });
  await page.getByPlaceholder('请输入姓名').fill(report.realname);
  await page.locator('button[type=submit]', { hasText: /搜\s*索/ }).click();
  const row = page.locator('tr.ant-table-row', { has: page.getByTestId(`report-view-${report.reportid}`) });
  const shown = (await row.locator('.list-time').first().innerText()).replace(/\s+/g, ' ').trim();

  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-detail').click()]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await file.path())!);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  const at = rows[0]!.map(String).indexOf('测评时间');
  const exported = String(rows.find((r) => r[0] === report.reportid)![at]);

  const china = new Date(report.createdat).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 16);
  expect(exported.slice(0, 16)).toBe(china);
  expect(shown).toBe(china);
});
