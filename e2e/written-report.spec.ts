import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { apiCall, apiSignIn, signIn } from './support';

const SHOTS = path.join(os.tmpdir(), 'xinli-written-shots');
const LIST = 'as.m.report.getAsai1UserReportPageList';

async function shoot(page: Page, name: string) {
  for (const lang of ['zh-CN', 'en-US']) {
    await page.context().addCookies([{ name: 'language', value: lang, url: page.url() }]);
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(page.locator('tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
      if (name === 'drawer') {
        await page.getByTestId(/^written-open-/).first().click();
        await expect(page.getByTestId('written-risk')).toBeVisible();
      }
      await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${width}.png`) });
    }
  }
  await page.context().addCookies([{ name: 'language', value: 'zh-CN', url: page.url() }]);
  await page.reload();
}

test('staff generate an AI individual report with the rule-based writer and approve it', async ({ page, request }) => {
  test.setTimeout(400_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  // A demo student of the school who has assessment reports and no written report yet.
  const staff = await apiSignIn(request, 'school');
  const res = await apiCall(request, LIST, { state: 'none', page: 1, pageSize: 50 }, staff.token);
  expect(res.errorCode, res.errorMsg).toBe(0);
  const person = (res.data as { rows: { cusercode: string; realname: string; reportcount: number }[] }).rows.find((r) => r.reportcount > 0);
  expect(person, 'a demo person with reports').toBeTruthy();
  const { cusercode, realname } = person!;

  await signIn(page, 'school');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/empower/individualReport?realname=${encodeURIComponent(realname)}`);
  const row = page.locator('tr.ant-table-row', { has: page.getByTestId(`written-generate-${cusercode}`) });
  await expect(row.getByTestId('written-state')).toHaveAttribute('data-state', 'none', { timeout: 60_000 });

  // Generate: the job is queued, the list polls, and the rule-based writer leaves a draft.
  await row.getByTestId(`written-generate-${cusercode}`).click();
  const state = page.locator('tr.ant-table-row', { hasText: realname }).getByTestId('written-state').first();
  await expect(state).toHaveAttribute('data-state', /queued|writing|draft/);
  await expect(state).toHaveAttribute('data-state', 'draft', { timeout: 60_000 });

  // Open it: the sections, the writer in plain words, the reports it used.
  await page.getByTestId(`written-open-${cusercode}`).click();
  const drawer = page.getByTestId('written-drawer');
  await expect(drawer.getByTestId('written-summary')).toBeVisible();
  await expect(drawer.getByTestId('written-risk')).toBeVisible();
  await expect(drawer.getByTestId('written-staff-steps').locator('li').first()).toBeVisible();
  await expect(drawer.getByTestId('written-person-steps').locator('li').first()).toBeVisible();
  await expect(drawer.getByTestId('written-writer')).toContainText('规则撰写');
  await expect(drawer.getByTestId('written-sources').locator('a[href*="/echarts/web?reportid="]').first()).toBeVisible();
  await expect(drawer.getByTestId('written-meta')).toContainText('尚未审核');

  await shoot(page, 'drawer');
  await page.goto(`/empower/individualReport?realname=${encodeURIComponent(realname)}`);
  await shoot(page, 'list');

  // Approve (confirmed): the drawer and the list say approved.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId(`written-open-${cusercode}`).click();
  await drawer.getByTestId('written-approve').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(drawer.getByTestId('written-meta').getByTestId('written-state')).toHaveAttribute('data-state', 'approved');
  await expect(drawer.getByTestId('written-approve')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.locator('tr.ant-table-row', { hasText: realname }).getByTestId('written-state').first()).toHaveAttribute('data-state', 'approved');
});
