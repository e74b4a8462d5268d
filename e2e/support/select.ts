import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Picks `text` in an antd Select: `select` is the select itself or anything holding it (the first
 * select inside is used). Retried until the select shows the option, because the dropdown
 * animates in and a click during the animation can land nowhere (the warnings spec once saved a
 * follow-up without its risk that way). `exact`: the option's whole text, not a part of it.
 */
export async function pick(page: Page, select: Locator, text: string, { exact = false } = {}) {
  const box = select.locator('xpath=descendant-or-self::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")]').first();
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(async () => {
    await box.click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: exact ? new RegExp(`^${escaped}$`) : text })
      .first()
      .click({ timeout: 5_000 });
    await expect(box).toContainText(text, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Picks a path in an open antd Cascader (RegionPicker, CategoryPathPicker), one level at a time.
 * Each level but the last is clicked until it is the open one, for the same reason as pick(): the
 * dropdown slides in and scrolls its active item into view, and a click meanwhile can land on a
 * neighbour or nowhere, so the next column never opens.
 */
export async function pickCascade(page: Page, labels: string[]) {
  for (const [i, label] of labels.entries()) {
    const menu = page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu').nth(i);
    const item = menu.locator('.ant-cascader-menu-item', { hasText: new RegExp(`^${label}$`) });
    if (i === labels.length - 1) {
      await item.click();
      continue;
    }
    await expect(async () => {
      await item.click({ timeout: 5_000 });
      await expect(item).toHaveClass(/ant-cascader-menu-item-active/, { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
  }
}
