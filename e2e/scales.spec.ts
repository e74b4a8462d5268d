import { expect, test, type Locator, type Page } from '@playwright/test';
import { pick, signIn } from './support';

/** The five-level report colours (packages/contract/src/enums.ts LevelColours). */
const LEVEL_1_COLOUR = 'rgb(160, 199, 52)'; // #a0c734

/** The <input> of an antd field carrying a data-testid (on the input itself or its wrapper). */
const inputOf = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`).locator('xpath=descendant-or-self::input').first();


/** Applies an option set to item `no` from its menu and checks the last option's text (retried: menus animate). */
async function applyOptionSet(page: Page, editor: Locator, no: number, set: string, lastText: string) {
  const count = set === '0–3' ? 4 : 2;
  await expect(async () => {
    await editor.getByTestId(`q${no}-presets`).click();
    await page
      .locator('.ant-dropdown:not(.ant-dropdown-hidden) .ant-dropdown-menu-item')
      .filter({ hasText: set })
      .last()
      .click({ timeout: 3000 });
    await expect(inputOf(page, `q${no}-opt${count}-text`)).toHaveValue(lastText, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
}

test.describe('scale library and editor', () => {
  // The editor test types a whole scale; on a shared 2-core machine that takes over a minute.
  test.describe.configure({ timeout: 240_000 });

  test('built-in scales are listed read-only with their licence note', async ({ page }) => {
    await signIn(page, 'school', { path: '/evaluating/evaluationScale' });
    const row = page.locator('tr', { hasText: 'PHQ9' });
    await expect(row.getByTestId('builtin-tag')).toBeVisible();
    await row.getByRole('button', { name: '查看' }).click();
    const editor = page.getByTestId('scale-editor');
    await expect(editor.getByTestId('builtin-notice')).toContainText('PHQ-9');
    await expect(editor.getByTestId('scale-save')).toHaveCount(0);
  });

  test('creates a custom scale with a reverse item, a factor, two bands and a critical item, then scores a sheet', async ({ page }) => {
    await signIn(page, 'school', { path: '/evaluating/evaluationScale' });
    await page.getByTestId('scale-add').click();
    const editor = page.getByTestId('scale-editor');
    await expect(editor).toBeVisible();
    await inputOf(page, 'scale-formname').fill('E2E 情绪筛查');

    // Items: three single-choice questions scored 0-3; item 2 is reverse-scored.
    await editor.getByRole('tab', { name: '题目' }).click();
    const texts = ['最近心情低落', '对生活感到满意', '有伤害自己的念头'];
    for (let i = 0; i < texts.length; i++) {
      await editor.getByTestId('add-single').click();
      const no = i + 1;
      await editor.getByTestId(`q${no}-text`).fill(texts[i]);
      await applyOptionSet(page, editor, no, '0–3', '几乎每天');
    }
    await editor.getByTestId('q2-reverse').click();
    await expect(editor.getByTestId('q2-reverse')).toHaveAttribute('aria-checked', 'true');

    // Indicators: the total with two bands (0-4 normal, 5-9 raised with a warning) and a factor on items 1-2.
    await editor.getByRole('tab', { name: '指标与分段' }).click();
    await inputOf(page, 'ind0-name').fill('总分');
    await editor.getByTestId('ind0-add-band').click();
    await inputOf(page, 'ind0-band0-max').fill('4');
    await inputOf(page, 'ind0-band0-label').fill('正常');
    await editor.getByTestId('ind0-add-band').click();
    await expect(inputOf(page, 'ind0-band1-min')).toHaveValue('5');
    await inputOf(page, 'ind0-band1-max').fill('9');
    await inputOf(page, 'ind0-band1-label').fill('偏高');
    await editor.getByTestId('ind0-band1-warning').click();
    await editor.getByTestId('add-factor').click();
    await inputOf(page, 'ind1-name').fill('情绪因子');
    await inputOf(page, 'ind1-items').fill('1-2');
    await expect(editor.getByTestId('indicator-1')).toContainText('将计入：1, 2');

    // Critical item: item 3 scored 2 or more.
    await editor.getByRole('tab', { name: '危机条目、效度与筛查' }).click();
    await editor.getByTestId('add-critical').click();
    await pick(page, editor.getByTestId('critical-0'), '3. 有伤害自己的念头');
    await inputOf(page, 'critical-0-min').fill('2');
    await inputOf(page, 'critical-0-reason').fill('第3题高分，需尽快关注');

    await editor.getByTestId('scale-save').click();
    await expect(page.locator('.ant-message')).toContainText('保存成功');
    await expect(editor.locator('.ant-drawer-title')).toContainText('编辑量表：E2E 情绪筛查');

    // Try it: highest option everywhere. Item 2 reversed scores 0, so the total is 3 + 0 + 3 = 6 (band 5-9, level 1).
    await editor.getByRole('tab', { name: '试做' }).click();
    await editor.getByTestId('try-fill-max').click();
    await editor.getByTestId('try-score').click();
    const result = editor.getByTestId('try-result');
    await expect(result).toBeVisible();
    const totalRow = result.locator('tr', { hasText: '总分' }).first();
    await expect(totalRow.locator('td').nth(3)).toHaveText('6');
    const tag = totalRow.getByTestId('level-tag');
    await expect(tag).toHaveText('偏高');
    await expect(tag).toHaveAttribute('data-level', '1');
    await expect(tag).toHaveCSS('background-color', LEVEL_1_COLOUR);
    await expect(result.locator('tr', { hasText: '情绪因子' }).first().locator('td').nth(3)).toHaveText('3');
    const warnings = editor.getByTestId('try-warnings');
    await expect(warnings).toContainText('危机条目（第 3 题）');
    await expect(warnings).toContainText('第3题高分，需尽快关注');
    await expect(warnings).toContainText('分段预警（总分）');
    await expect(result.getByTestId('mental-state-tag')).toBeVisible();

    // Nothing was stored: the library lists the scale once, still at version 1.
    await editor.getByRole('button', { name: '关闭' }).first().click();
    const row = page.locator('tr', { hasText: 'E2E 情绪筛查' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('v1');
  });

  test('shows the server’s validation message when bands leave a gap', async ({ page }) => {
    await signIn(page, 'provider', { path: '/evaluating/evaluationScale' });
    await page.getByTestId('scale-add').click();
    const editor = page.getByTestId('scale-editor');
    await inputOf(page, 'scale-formname').fill('E2E 缺口量表');
    await editor.getByRole('tab', { name: '题目' }).click();
    await editor.getByTestId('add-single').click();
    await editor.getByTestId('q1-text').fill('题目一');
    await applyOptionSet(page, editor, 1, '是 / 否', '否');
    await editor.getByRole('tab', { name: '指标与分段' }).click();
    await inputOf(page, 'ind0-name').fill('总分');
    await editor.getByTestId('ind0-add-band').click();
    await inputOf(page, 'ind0-band0-max').fill('0');
    await inputOf(page, 'ind0-band0-label').fill('低');
    await editor.getByTestId('scale-save').click();
    // Score 1 is in no band: the server refuses and the drawer keeps its message in view.
    await expect(editor.getByTestId('scale-save-error')).toBeVisible();
    await expect(editor.getByTestId('scale-save-error')).toContainText('total');
    await expect(editor.locator('.ant-drawer-title')).toContainText('新建量表');
  });
});

test.describe('plan library and stages', () => {
  test.describe.configure({ timeout: 180_000 });

  test('a plan shows its stages with their scales; the stage page filters by category', async ({ page }) => {
    await signIn(page, 'school', { path: '/evaluating/newInstitutionalEvaluation' });
    const row = page.locator('tr', { hasText: 'PL-S1' });
    await row.getByRole('button', { name: /查看$/ }).click();
    const detail = page.getByTestId('plan-detail');
    await expect(detail).toContainText('初一入学筛查');
    await expect(detail).toContainText('青少年患者健康问卷（PHQ-A）');
    // The demo plans hold only scales whose item text ships: nothing is marked.
    await expect(detail.getByTestId('textless-tag')).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.goto('/period/periodManagement');
    await expect(page.locator('tr', { hasText: 'ST-S1' })).toBeVisible();
    await page.locator('.period-tree').getByText('高中', { exact: true }).click();
    await expect(page.locator('tr', { hasText: 'ST-S2' })).toBeVisible();
    await expect(page.locator('tr', { hasText: 'ST-S1' })).toHaveCount(0);
  });
});
