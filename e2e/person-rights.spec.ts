import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiCall, apiSignIn, setLanguage, signIn } from './support';

/** A person's rights over their record (issue 30 §5): export JSON and PDF, anonymise with the confirmation. */

async function ok<T>(request: APIRequestContext, name: string, data: unknown, token?: string): Promise<T> {
  const res = await apiCall(request, name, data, token);
  expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
  return res.data as T;
}

const SHOTS = path.join(os.tmpdir(), 'xinli-person-rights-shots');

test.describe('a person’s rights over their record', () => {
  test.describe.configure({ timeout: 180_000 });

  test('staff export a person’s record as JSON and PDF from the person’s page', async ({ page, request }) => {
    const staff = await apiSignIn(request, 'school');
    const reports = await ok<{ rows: { cusercode: string }[] }>(request, 'as.m.exam.getCUserReportPageList', { appid: '000000002', page: 1, pageSize: 1 }, staff.token);
    const cusercode = reports.rows[0]!.cusercode;
    await signIn(page, 'school');
    await setLanguage(page, 'zh-CN');
    await page.goto(`/archives/archivesyh2?cusercode=${cusercode}`);
    await expect(page.getByTestId('archive-detail')).toBeVisible();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'record-'));

    await page.getByTestId('record-export').hover();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: /JSON/ }).click()]);
    const jsonFile = path.join(dir, 'record.json');
    await json.saveAs(jsonFile);
    const record = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
    expect(record.cusercode).toBe(cusercode);
    expect(Object.keys(record.sections)).toEqual(expect.arrayContaining(['profile', 'archive', 'reports', 'cases']));
    expect(record.sections.reports.length).toBeGreaterThan(0);

    await page.getByTestId('record-export').hover();
    const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('menuitem', { name: /PDF/ }).click()]);
    const pdfFile = path.join(dir, 'record.pdf');
    await pdf.saveAs(pdfFile);
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdfFile], { encoding: 'utf8' }))![1]);
    expect(pages).toBeGreaterThanOrEqual(1);
    fs.rmSync(dir, { recursive: true });
  });

  test('staff anonymise a person after a confirmation naming the consequences; the page and list show it', async ({ page, request }) => {
    const staff = await apiSignIn(request, 'school');
    const realname = `匿名测试${test.info().workerIndex}${test.info().retry}`;
    const { cusercode } = await ok<{ cusercode: string }>(request, 'as.m.cuser.insertCUser', { appid: '000000002', realname, gender: '01', phonenumber: '13700001234' }, staff.token);
    await signIn(page, 'school');
    fs.mkdirSync(SHOTS, { recursive: true });
    for (const lang of ['zh-CN', 'en-US']) {
      await setLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 860 });
        await page.goto(`/archives/archivesyh2?cusercode=${cusercode}`);
        await expect(page.getByTestId('person-anonymise')).toBeVisible();
        await page.screenshot({ path: path.join(SHOTS, `person-${lang}-${width}.png`) });
        await page.getByTestId('person-anonymise').click();
        await expect(page.getByTestId('anonymise-confirm')).toBeVisible();
        // The OK button says what it does, not "OK".
        await expect(page.getByRole('dialog').getByRole('button', { name: lang === 'en-US' ? 'Anonymise' : '匿名化' })).toBeVisible();
        await page.screenshot({ path: path.join(SHOTS, `confirm-${lang}-${width}.png`) });
        await page.getByRole('button', { name: /取\s*消|Cancel/ }).click();
        await expect(page.getByTestId('anonymise-confirm')).toBeHidden();
      }
    }
    await setLanguage(page, 'zh-CN');
    await page.setViewportSize({ width: 1440, height: 860 });
    await page.goto(`/archives/archivesyh2?cusercode=${cusercode}`);
    await page.getByTestId('person-anonymise').click();
    await expect(page.getByTestId('anonymise-confirm')).toContainText('不可撤销');
    await page.getByRole('dialog').getByRole('button', { name: '匿名化' }).click();
    await expect(page.getByTestId('archive-name')).toHaveText('已匿名');
    await expect(page.getByTestId('person-anonymised')).toBeVisible();
    await expect(page.getByTestId('person-anonymise')).toHaveCount(0);
    await page.screenshot({ path: path.join(SHOTS, 'anonymised-zh-CN-1440.png') });
    // The archive list shows the person as anonymised.
    await page.goto(`/archives/archives_gl_ye?realname=${encodeURIComponent('已匿名')}`);
    await expect(page.getByTestId(`archive-open-${cusercode}`)).toHaveText('已匿名');
    await page.screenshot({ path: path.join(SHOTS, 'list-zh-CN-1440.png') });
    // The institution's retention setting, from the list's toolbar.
    await page.getByTestId('retention-open').click();
    await expect(page.getByTestId('retention-months')).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, 'retention-zh-CN-1440.png') });
    await setLanguage(page, 'en-US');
    await page.goto(`/archives/archives_gl_ye?realname=${encodeURIComponent('已匿名')}`);
    await expect(page.getByTestId(`archive-open-${cusercode}`)).toHaveText('Anonymised');
    await page.getByTestId('retention-open').click();
    await expect(page.getByTestId('retention-months')).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, 'retention-en-US-1440.png') });
    const again = await apiCall(request, 'as.m.cuser.anonymiseCUser', { cusercode }, staff.token);
    expect(again.errorCode).not.toBe(0);
  });
});
