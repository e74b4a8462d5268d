/**
 * The AI group report (/task/groupReport): the demo school's running task shows its level
 * distribution, classes and the trend against the finished task; staff write the rule-based summary and approve it. Screenshots at
 * 1024 and 1440 px in zh and en go to group-report-shots/.
 */
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiCall, apiSignIn, ok, shootInBothLanguages, signIn } from './support';

const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'group-report-shots');

test('the group report shows the level distribution and a written summary staff approve', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'school', { path: '/task/groupReport' });
  const report = page.getByTestId('group-report');
  await expect(report).toBeVisible({ timeout: 60_000 });
  // The newest demo task (running, every class) opens first; its previous task is the finished one of 初二.
  await expect(page.getByTestId('group-distribution-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('group-classes-chart')).toBeVisible();
  await expect(page.getByTestId('group-trend-chart')).toBeVisible();

  await page.getByTestId('group-generate').click();
  await expect(page.getByTestId('group-summary-text')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('group-approve').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*定|OK/ }).click();
  await expect(page.getByTestId('group-summary').getByTestId('written-state')).toHaveAttribute('data-state', 'approved');
  const url = page.url();

  await shootInBothLanguages(page, {
    url,
    dir: shots,
    name: 'group',
    ready: () => expect(page.getByTestId('group-distribution-chart').locator('canvas')).toBeVisible({ timeout: 60_000 }),
  });
});

/**
 * Issue 28 item 11: everyone on the attention list is there for a reason the row says (a worst
 * level of 3 or more, or what raised their warning case), and the case shows its real state.
 */
test('each person needing attention says why, and the case link shows the case’s real state', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { token } = await apiSignIn(request, 'school');
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'school', { path: '/task/groupReport' });
  const list = page.getByTestId('group-attention');
  await expect(page.getByTestId('group-report')).toBeVisible({ timeout: 60_000 });
  const rows = list.locator('tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  const states: Record<string, string> = { open: '待确认', acknowledged: '已确认', followup: '跟进中', closed: '已结案' };
  const n = Math.min(await rows.count(), 10);
  for (let i = 0; i < n; i++) {
    const row = rows.nth(i);
    const why = row.locator('[data-testid^="group-why-"]');
    await expect(why).not.toBeEmpty();
    const link = row.locator('[data-testid^="group-case-"]');
    if ((await link.count()) === 0) continue;
    const caseid = new URL((await link.getAttribute('href'))!, page.url()).searchParams.get('caseid')!;
    const kase = await ok<{ case: { state: string } }>(apiCall(request, 'as.m.warning.getCase', { caseid }, token));
    await expect(link).toHaveText(states[kase.case.state]!);
  }
});
