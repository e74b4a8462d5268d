import { expect, test } from '@playwright/test';
import { apiCall, apiSignIn, signIn } from './support';

const LIST = 'as.m.report.getAsai1UserReportPageList';

test('staff generate an AI individual report with the rule-based writer and approve it', async ({ page, request }) => {
  test.setTimeout(240_000);
  // A demo student of the school who has assessment reports and no written report yet.
  const staff = await apiSignIn(request, 'school');
  const res = await apiCall(request, LIST, { state: 'none', page: 1, pageSize: 50 }, staff.token);
  expect(res.errorCode, res.errorMsg).toBe(0);
  const person = (res.data as { rows: { cusercode: string; realname: string; reportcount: number }[] }).rows.find((r) => r.reportcount > 0);
  expect(person, 'a demo person with reports').toBeTruthy();
  const { cusercode, realname } = person!;

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'school', { path: `/empower/individualReport?realname=${encodeURIComponent(realname)}` });
  const row = page.locator('tr.ant-table-row', { has: page.getByTestId(`written-generate-${cusercode}`) });
  await expect(row.getByTestId('written-state')).toHaveAttribute('data-state', 'none', { timeout: 60_000 });

  // Generate: a sign at once (issue 28: several seconds without one). The request is held back
  // for 3 s, as on a busy server: meanwhile the button spins and a message says the job starts.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/as.m.report.generateAsai1UserReport/**', async (route) => {
    await held;
    await route.continue();
  });
  const button = row.getByTestId(`written-generate-${cusercode}`);
  await button.click();
  await expect(page.locator('.ant-message')).toContainText('正在提交生成任务（1 人）', { timeout: 2_000 });
  await expect(button).toBeDisabled({ timeout: 2_000 });
  release();
  // Then the job's progress follows its states until it is written.
  const batch = page.getByTestId('written-batch');
  await expect(batch).toBeVisible();
  await expect(batch.locator('.ant-progress')).toBeVisible();
  await expect(batch).toContainText('已完成 1', { timeout: 60_000 });
  await page.unroute('**/api/as.m.report.generateAsai1UserReport/**');

  // The job is queued, the list polls, and the rule-based writer leaves a draft.
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

  // Approve (confirmed): the drawer and the list say approved.
  await drawer.getByTestId('written-approve').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(drawer.getByTestId('written-meta').getByTestId('written-state')).toHaveAttribute('data-state', 'approved');
  await expect(drawer.getByTestId('written-approve')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.locator('tr.ant-table-row', { hasText: realname }).getByTestId('written-state').first()).toHaveAttribute('data-state', 'approved');
});
