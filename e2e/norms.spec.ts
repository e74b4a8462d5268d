import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { apiCall, apiSignIn, setLanguage, signIn } from './support';

/**
 * Issue 31 §2 and §3 in the browser: the demo working adult's SCL-90 report against the 1986
 * national norm (z, T, bar, footnote) with its reliable deterioration, in zh and en at 1024 and
 * 1440 px; the printed document's norm footnote (pdftotext); the archive's change labels; and the
 * super account's norms page.
 */
const SHOTS = path.join(os.tmpdir(), 'xinli-norms-shots');

test.describe('norms and reliable change', () => {
  test.describe.configure({ timeout: 600_000 });

  test('an SCL-90 report against the national norm with a reliable deterioration, printed with its source', async ({ page, request, browser }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const staff = await apiSignIn(request, 'warning');
    const list = await apiCall(request, 'as.m.exam.getCUserReportPageList', { formcode: 'SCL90', page: 1, pageSize: 5 }, staff.token);
    expect(list.errorCode, list.errorMsg).toBe(0);
    const rows = (list.data as { rows: { reportid: string; cusercode: string; appid: string }[] }).rows;
    expect(rows).toHaveLength(2);
    const latest = rows[0]!;
    await page.addInitScript(() => {
      window.print = () => undefined;
    });
    await signIn(page, 'warning');
    for (const lang of ['zh-CN', 'en-US']) {
      await setLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/echarts/web?reportid=${latest.reportid}`);
        const norms = page.getByTestId('report-norms');
        await expect(norms).toBeVisible({ timeout: 90_000 });
        await expect(norms.locator('tr.ant-table-row').first()).toBeVisible();
        await expect(norms).toContainText(lang === 'en-US' ? 'Reliable deterioration · RCI 6.71' : '可靠恶化 · RCI 6.71');
        await expect(page.getByTestId('report-norm-source')).toContainText('1388');
        await expect(page.getByTestId('report-norm-source')).toContainText(lang === 'en-US' ? 'Reliability source' : '信度来源');
        await norms.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `report-${lang}-${width}.png`) });
        await norms.screenshot({ path: path.join(SHOTS, `norms-card-${lang}-${width}.png`) });
      }
    }

    // The printed document carries the norm table and its source as a footnote.
    await setLanguage(page, 'zh-CN');
    await page.goto(`/echarts/web?reportid=${latest.reportid}`);
    await expect(page.getByTestId('report-norms')).toBeVisible({ timeout: 90_000 });
    await page.getByTestId('report-print').click();
    const frame = page.getByTestId('report-print-frame');
    await expect(frame).toHaveAttribute('srcdoc', /<html/i);
    const html = (await frame.getAttribute('srcdoc'))!;
    const printPage = await page.context().newPage();
    await printPage.setContent(html, { waitUntil: 'load' });
    const pdfFile = path.join(SHOTS, 'report.pdf');
    await printPage.pdf({ path: pdfFile, preferCSSPageSize: true, printBackground: true });
    await printPage.close();
    const text = execFileSync('pdftotext', ['-layout', pdfFile, '-']).toString();
    expect(text).toContain('常模比较');
    expect(text).toContain('常模来源');
    expect(text).toMatch(/n = 1388/);
    expect(text).toContain('可靠恶化');
    execFileSync('pdftoppm', ['-r', '60', '-png', '-f', '1', '-l', '2', pdfFile, path.join(SHOTS, 'report-pdf')]);

    // The archive's report list labels each change (the employer's login lands on warnings; the super account opens archives).
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const admin = await context.newPage();
    await signIn(admin, 'admin', { path: `/archives/archivesyh3?cusercode=${encodeURIComponent(latest.cusercode)}` });
    const change = admin.getByTestId(`archive-change-${latest.reportid}`);
    await expect(change).toBeVisible({ timeout: 90_000 });
    await expect(change).toContainText('可靠恶化');
    await change.scrollIntoViewIfNeeded();
    await admin.screenshot({ path: path.join(SHOTS, 'archive-zh-CN-1440.png') });
    await context.close();
  });

  test('the super account keeps the norms; the page at 1024 and 1440 px, zh and en', async ({ page }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await signIn(page, 'admin');
    for (const lang of ['zh-CN', 'en-US']) {
      await setLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/evaluating/scaleNorms');
        await expect(page.locator('tr.ant-table-row').first()).toBeVisible({ timeout: 90_000 });
        await expect(page.locator('tr.ant-table-row').first()).toContainText('1986');
        await page.screenshot({ path: path.join(SHOTS, `norms-page-${lang}-${width}.png`) });
      }
    }
    await page.getByTestId('norm-edit-NMSCL90CN1986').click();
    await expect(page.getByTestId('norm-formcode')).toBeVisible();
    await expect(page.getByTestId('norm-formcode')).toHaveValue('SCL90');
    await page.screenshot({ path: path.join(SHOTS, 'norms-dialog-en-US.png') });
  });
});
