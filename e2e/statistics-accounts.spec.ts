/**
 * Issue 28 items 4, 6 and 21 against the real server and the demo data:
 * - the employer (`warning`) opens the report analysis: every card loads (its reports are in the
 *   provider's stage ST-W1), no error message, none carried to the next page; a stale stage in the
 *   URL is dropped and said once;
 * - the education bureau visits report analysis, crisis warnings and both data reports, each
 *   showing its district's content and saying what is out of its scope;
 * - each account's statistics page shows only the cards that fit its populations.
 * Screenshots at 1024 and 1440 px in zh and en go to /tmp/shots-stats (SHOTS overrides).
 */
import { expect, test, type Page } from '@playwright/test';
import { shootInBothLanguages, signIn } from './support';

const shots = process.env.SHOTS ?? '/tmp/shots-stats';

const shoot = (page: Page, url: string, name: string, ready: () => Promise<void>) =>
  shootInBothLanguages(page, { url, dir: shots, name, ready });

const settled = async (page: Page, ids: string[], state: RegExp = /ready|empty/) => {
  for (const id of ids) await expect(page.getByTestId(id), id).toHaveAttribute('data-state', state, { timeout: 60_000 });
};
const errors = (page: Page) => page.locator('.ant-message-notice .ant-message-error');
const ANALYSIS = ['analysis-stages', 'analysis-depressed', 'analysis-anxious', 'analysis-counts', 'analysis-forms'];

test('the employer’s report analysis loads every card, and no error follows it to the next page', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'warning', { path: '/statistics/usersReportS' });
  const table = page.getByTestId('analysis-stage-table');
  await expect(table.locator('tr.ant-table-row').first()).toContainText('年度心理体检', { timeout: 60_000 });
  await settled(page, ANALYSIS, /ready/);
  await expect(page.getByText(/数据加载失败|Failed to load/)).toHaveCount(0);
  await expect(errors(page)).toHaveCount(0);
  await page.goto('/earlyWarning/earlyWarning');
  await expect(errors(page)).toHaveCount(0);

  // A stage from an old link: dropped from the filter and said once, no error messages.
  await page.goto('/statistics/usersReportS?stagecode=ST-GONE');
  await expect(page.locator('.ant-message-notice').filter({ hasText: 'ST-GONE' })).toHaveCount(1, { timeout: 30_000 });
  await expect(page).not.toHaveURL(/stagecode=/);
  await expect(table.locator('tr.ant-table-row').first()).toContainText('年度心理体检', { timeout: 60_000 });
  await settled(page, ANALYSIS, /ready/);
  await expect(errors(page)).toHaveCount(0);
  await page.goto('/earlyWarning/earlyWarning');
  await expect(page.locator('.ant-message-notice').filter({ hasText: 'ST-GONE' })).toHaveCount(0);

  await shoot(page, '/statistics/usersReportS', 'analysis-warning', () => settled(page, ANALYSIS, /ready/));
});

test('the education bureau sees its district on report analysis, crisis warnings and both data reports', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'bureau');

  await page.goto('/statistics/usersReportS');
  await expect(page.getByTestId('analysis-district-scope')).toBeVisible();
  await expect(page.getByTestId('analysis-stage-table').locator('tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
  await settled(page, ANALYSIS, /ready/);

  await page.goto('/earlyWarning/earlyWarning');
  await expect(page.getByTestId('district-scope')).toContainText('各学校');
  await settled(page, ['district-summary', 'district-schools'], /ready/);
  const total = page.getByTestId('district-total').locator('.ant-statistic-content-value');
  await expect(total).not.toHaveText(/^0$/);
  await expect(page.getByTestId('district-school-table').locator('tr.ant-table-row').first()).toContainText('滨江第一中学');
  // No person: the case list (names) is not on the page.
  await expect(page.getByTestId('case-state-tabs')).toHaveCount(0);

  await page.goto('/Datastatistics/Datastatistics');
  await expect(page.getByTestId('data-district-plans')).toBeVisible();
  await expect(page.getByTestId('plan-details')).toBeVisible();

  await page.goto('/Datastatistics/Datastatisticst');
  await expect(page.getByTestId('data-district-plans')).toBeVisible();
  await settled(page, ['data-kpi-reports', 'data-kpi-finished', 'data-interventions'], /ready/);
  await expect(page.getByTestId('data-cases')).toBeVisible();
  await expect(page.getByTestId('data-district-scope')).toBeVisible();
  await expect(page.getByTestId('data-followups')).toHaveCount(0);
  await expect(errors(page)).toHaveCount(0);

  await shoot(page, '/statistics/usersReportS', 'bureau-analysis', () => settled(page, ANALYSIS, /ready/));
  await shoot(page, '/earlyWarning/earlyWarning', 'bureau-warnings', () => settled(page, ['district-summary', 'district-schools'], /ready/));
  await shoot(page, '/Datastatistics/Datastatistics', 'bureau-plan-details', async () => {
    await expect(page.getByTestId('data-district-plans')).toBeVisible();
  });
  await shoot(page, '/Datastatistics/Datastatisticst', 'bureau-plan-stats', () => settled(page, ['data-kpi-reports', 'data-interventions'], /ready/));
});

/** Each account's statistics page and the population-bound cards it must (not) show. */
const ACCOUNTS = [
  { user: 'hospital', url: '/statistics/statistics', classes: false, gender: false },
  { user: 'warning', url: '/statistics/statistics', classes: false, gender: true },
  { user: 'eldercare', url: '/statisticsN/statisticsN', classes: false, gender: true },
  { user: 'school', url: '/statistics/statistics', classes: true, gender: true },
  { user: 'bureau', url: '/statistics/statistics', classes: true, gender: true },
  { user: 'provider', url: '/statistics/statistics', classes: true, gender: true },
] as const;

for (const a of ACCOUNTS) {
  test(`${a.user}: the statistics cards fit its populations`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, a.user, { path: a.url });
    const check = async () => {
      await settled(page, ['stats-day', 'stats-depressed', 'stats-anxious']);
      await expect(page.getByTestId('stats-gender')).toHaveCount(a.gender ? 1 : 0);
      for (const id of ['stats-grade-trend', 'stats-grade-ratio', 'stats-class']) await expect(page.getByTestId(id)).toHaveCount(a.classes ? 1 : 0);
    };
    await shoot(page, a.url, `statistics-${a.user}`, check);
  });
}
