import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiCall, apiSignIn, setLanguage, signIn } from './support';

/**
 * Issue 28 item 5: the report export names mental states and levels with the words the console
 * shows, in the console's language, never their codes.
 */
test('the report export from the report list says what the list says, in zh and en', async ({ page, request }) => {
  test.setTimeout(300_000);
  const staff = await apiSignIn(request, 'school');
  const res = await apiCall(request, 'as.m.exam.getCUserReportPageList', { appid: '000000002', page: 1, pageSize: 1 }, staff.token);
  expect(res.errorCode, res.errorMsg).toBe(0);
  const report = (res.data as { rows: { reportid: string; realname: string }[] }).rows[0]!;

  await signIn(page, 'school');
  for (const [lang, name, search, stateHead, levelHead] of [
    ['zh-CN', '请输入姓名', /搜\s*索/, '心理状态', '最高等级'],
    ['en-US', 'Enter name', /Search/, 'Mental state', 'Highest level'],
  ] as const) {
    await setLanguage(page, lang);
    await page.goto('/empower/usersReport');
    await expect(page.getByTestId('report-stage-tabs')).toBeVisible({ timeout: 90_000 });
    await page.getByPlaceholder(name).fill(report.realname);
    await page.locator('button[type=submit]', { hasText: search }).click();
    const row = page.locator('tr.ant-table-row', { has: page.getByTestId(`report-view-${report.reportid}`) });
    const shown = (await row.getByTestId('mental-state-tag').innerText()).trim();

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-detail').click()]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile((await file.path())!);
    const rows: unknown[][] = [];
    wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const head = rows[0]!.map(String);
    const state = head.indexOf(stateHead);
    const level = head.indexOf(levelHead);
    expect(state, head.join(',')).toBeGreaterThan(0);
    const line = rows.find((r) => r[0] === report.reportid)!;
    expect(line, 'the report is in its export').toBeTruthy();
    expect(line[state]).toBe(shown);
    // Every level cell of every report is a word (or empty for no band), never a code. Gathered and
    // compared once: an expect per cell (600 reports, 25 level columns) took most of a minute.
    const levelColumns = head.flatMap((h, i) => (i === level || h.endsWith(lang === 'en-US' ? ' level' : '等级') ? [i] : []));
    const codes = rows
      .slice(1)
      .flatMap((r) =>
        [state, ...levelColumns].filter((i) => /^\d+$/.test(String(r[i] ?? ''))).map((i) => `${String(r[0])} ${head[i]}: ${String(r[i])}`),
      );
    expect(codes).toEqual([]);
  }
});
