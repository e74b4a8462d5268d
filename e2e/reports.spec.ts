import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiCall, apiSignIn, shootInBothLanguages, signIn } from './support';

const SHOTS = path.join(os.tmpdir(), 'xinli-reports-shots');

interface ReportRow {
  reportid: string;
  realname: string;
  formname: string;
  cusercode: string;
}

/** A demo student's report of the school (the test server seeds months of them). */
async function studentReport(request: APIRequestContext): Promise<ReportRow> {
  const staff = await apiSignIn(request, 'school');
  const res = await apiCall(request, 'as.m.exam.getCUserReportPageList', { appid: '000000002', page: 1, pageSize: 1 }, staff.token);
  expect(res.errorCode, res.errorMsg).toBe(0);
  const row = (res.data as { rows: ReportRow[] }).rows[0];
  expect(row).toBeTruthy();
  return row!;
}

/** The share of dark pixels of a binary PGM (P5) image. */
function inkOf(pgm: Buffer): number {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a PGM');
  const [, w, h] = header.map(Number);
  const pixels = pgm.subarray(header[0].length);
  let dark = 0;
  for (const p of pixels) if (p < 200) dark += 1;
  return dark / (w! * h!);
}

test.describe('reports', () => {
  test.describe.configure({ timeout: 300_000 });

  test('staff open a student report from the list, comment on it, print it on A4 and hide it from the respondent', async ({ page, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const report = await studentReport(request);
    // The browser's print dialog is not for a test: print() in any frame just says it was called.
    await page.addInitScript(() => {
      window.print = () => {
        (window.top as unknown as { __printed?: number }).__printed = ((window.top as unknown as { __printed?: number }).__printed ?? 0) + 1;
      };
    });

    await signIn(page, 'school', { path: '/empower/usersReport' });
    // Stage tabs with counts and the latest report time come with the list.
    // (The first page of a freshly seeded server can take long on a loaded machine.)
    await expect(page.getByTestId('report-stage-tabs')).toBeVisible({ timeout: 90_000 });
    await expect(page.getByTestId('report-max-time')).toContainText(/\d{4}-\d{2}-\d{2}/);
    await page.getByPlaceholder('请输入姓名').fill(report.realname);
    await page.locator('button[type=submit]', { hasText: /搜\s*索/ }).click();
    await page.getByTestId(`report-view-${report.reportid}`).click();

    // The report page: person, form version, every indicator with its level, the answers.
    await expect(page).toHaveURL(new RegExp(`/echarts/web\\?reportid=${report.reportid}`));
    const header = page.getByTestId('report-header');
    await expect(header.getByTestId('report-person')).toHaveText(report.realname);
    await expect(header.getByTestId('report-version')).toContainText(/v\d+/);
    const indicators = page.getByTestId('report-indicators');
    await expect(indicators.locator('tr.ant-table-row').first()).toBeVisible();
    await expect(indicators.getByTestId('level-tag').first()).toBeVisible();
    await expect(page.getByTestId('report-answers').locator('tr.ant-table-row').first()).toBeVisible();

    // A comment is added and listed with who and when.
    const comment = `复评建议：两周后随访 ${test.info().workerIndex}-${test.info().retry}`;
    await page.getByTestId('report-comment-input').fill(comment);
    await page.getByTestId('report-comment-add').click();
    const added = page.getByTestId('report-comment').filter({ hasText: comment });
    await expect(added).toBeVisible();
    await expect(added.locator('.report-comment-meta strong')).not.toBeEmpty();
    await expect(added.locator('.report-comment-meta')).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);

    // Print: the server's document goes into a hidden frame, whose print() is called.
    await page.getByTestId('report-print').click();
    const frame = page.getByTestId('report-print-frame');
    await expect(frame).toHaveAttribute('srcdoc', /<html/i);
    await expect.poll(() => page.evaluate(() => (window as unknown as { __printed?: number }).__printed ?? 0)).toBeGreaterThan(0);
    const html = (await frame.getAttribute('srcdoc'))!;
    expect(html).toContain(report.realname);
    expect(html).toContain(comment);

    // The same document printed to PDF by Chromium: A4 pages with ink on them.
    const printPage = await page.context().newPage();
    await printPage.setContent(html, { waitUntil: 'load' });
    const pdfFile = path.join(SHOTS, 'report.pdf');
    await printPage.pdf({ path: pdfFile, preferCSSPageSize: true, printBackground: true });
    await printPage.close();
    const info = execFileSync('pdfinfo', [pdfFile]).toString();
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBeGreaterThanOrEqual(1);
    const [w, h] = (/Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info) ?? []).slice(1).map(Number);
    expect(Math.abs(w! - 595.28)).toBeLessThan(2);
    expect(Math.abs(h! - 841.89)).toBeLessThan(2);
    execFileSync('pdftoppm', ['-r', '40', '-gray', '-f', '1', '-l', '1', pdfFile, path.join(SHOTS, 'report-page')]);
    const pgm = fs.readdirSync(SHOTS).find((f) => f.startsWith('report-page') && f.endsWith('.pgm'))!;
    expect(inkOf(fs.readFileSync(path.join(SHOTS, pgm)))).toBeGreaterThan(0.01);
    execFileSync('pdftoppm', ['-r', '60', '-png', pdfFile, path.join(SHOTS, 'report-pdf')]);

    // Hidden from the respondent, after a question.
    await expect(page.getByTestId('report-visibility')).toHaveAttribute('data-hidden', '0');
    await page.getByTestId('report-toggle').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定/ }).click();
    await expect(page.getByTestId('report-visibility')).toHaveAttribute('data-hidden', '1');
    const staff = await apiSignIn(request, 'school');
    const stored = await apiCall(request, 'as.m.exam.getCUserReport', { reportid: report.reportid }, staff.token);
    expect((stored.data as { hidden: number }).hidden).toBe(1);
  });

  test('screenshots: the list and the report page at 1024 and 1440 px, zh and en', async ({ page, request }) => {
    test.setTimeout(600_000);
    fs.mkdirSync(SHOTS, { recursive: true });
    const report = await studentReport(request);
    await signIn(page, 'school', { path: '/empower/usersReport' });
    // Each page loaded once, switched to English in place and resized.
    const rows = page.locator('tr.ant-table-row');
    const pages = [
      { name: 'list', url: '/empower/usersReport', fullPage: false, drawn: rows },
      { name: 'mood', url: '/empower/usersReport?view=mood', fullPage: false, drawn: page.locator('tr.ant-table-row, .ant-empty') },
      {
        name: 'report',
        url: `/echarts/web?reportid=${report.reportid}`,
        fullPage: true,
        drawn: page.getByTestId('report-answers').locator(rows),
      },
    ];
    for (const { name, url, fullPage, drawn } of pages)
      await shootInBothLanguages(page, {
        url,
        dir: SHOTS,
        name,
        fullPage,
        ready: () => expect(drawn.first()).toBeVisible({ timeout: 90_000 }),
      });
    // Empty and error states of the report page (without `reportid` at all the route is the big screen).
    await page.goto('/echarts/web?reportid=');
    await expect(page.getByTestId('report-none')).toBeVisible();
    await page.route('**/api/as.m.exam.getCUserReport/**', (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.goto(`/echarts/web?reportid=${report.reportid}`);
    await expect(page.getByRole('button', { name: /重\s*试|Retry/ })).toBeVisible({ timeout: 60_000 });
    await page.screenshot({ path: path.join(SHOTS, 'report-error.png') });
  });
});
