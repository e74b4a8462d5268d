import { expect, type Locator } from '@playwright/test';

/**
 * Opens every closed submenu of a sidebar menu, the lowest first (nothing above it moves), counted
 * again before each click: the current page's submenu opens by itself once its route is known,
 * and the menu marks a clicked one open after the click returns. On a loaded machine either came
 * after a count (CI clicked an eighth closed submenu of seven, and waited for one that was open).
 */
export async function openSubmenus(menu: Locator) {
  const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let clicks = 0; clicks < 40 && (await closed.count()) > 0; clicks++) {
    // One that opened by itself between the count and the click is simply counted again.
    await closed
      .last()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
  }
  await expect(closed).toHaveCount(0);
}
