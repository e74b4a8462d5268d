import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support';

async function openFromSidebar(page: Page, section: string, item: string) {
  const menu = page.getByTestId('side-menu');
  const entry = menu.getByRole('menuitem', { name: item, exact: true });
  if (!(await entry.isVisible())) await menu.getByText(section, { exact: true }).click();
  await entry.click();
  // The page has arrived (its crumb is shown) before the next step looks at the tabs.
  await expect(page.getByTestId('breadcrumb')).toContainText(item);
}

/** Opens a tab's context menu and picks an action. */
async function tagAction(page: Page, title: string, action: string) {
  await page.getByTestId('tags-view').locator('.tags-item', { hasText: title }).click({ button: 'right' });
  await page.getByTestId('tags-menu').getByRole('menuitem', { name: action, exact: true }).click();
  await expect(page.getByTestId('tags-menu')).toHaveCount(0);
}

test('the sidebar collapse survives a reload (cookie sidebarStatus)', async ({ page, context }) => {
  await signIn(page, 'school');
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
  await expect(sidebar).toHaveCSS('width', '210px');
  await page.getByTestId('hamburger').click();
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
  expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0');
  await page.reload();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  await page.getByTestId('hamburger').click();
  await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
  expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('1');
});

test('breadcrumb starts with the workbench crumb', async ({ page }) => {
  await signIn(page, 'admin');
  await openFromSidebar(page, '权限管理', '角色管理');
  await expect(page.getByTestId('breadcrumb')).toHaveText(/工作台\s*\/\s*权限管理\s*\/\s*角色管理/);
});

test('tags view: off by default, switched on in settings, context menu actions and an affixed tab', async ({ page }) => {
  await signIn(page, 'admin');
  await expect(page.getByTestId('tags-view')).toHaveCount(0);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('setting-tagsView').click();
  await page.keyboard.press('Escape');
  const tags = page.getByTestId('tags-view');
  await expect(tags).toBeVisible();

  // The landing page is affixed: no close button.
  const landing = tags.locator('.tags-item').first();
  await expect(landing).toHaveClass(/affix/);
  await expect(landing.locator('.tags-close')).toHaveCount(0);

  await openFromSidebar(page, '权限管理', '角色管理');
  await openFromSidebar(page, '行政管理', '部门管理');
  await openFromSidebar(page, '行政管理', '用户管理');
  await expect(tags.locator('.tags-item')).toHaveCount(4);

  // The context menu is 105px wide and has the four actions (and pin).
  await tags.locator('.tags-item', { hasText: '部门管理' }).click({ button: 'right' });
  const menu = page.getByTestId('tags-menu');
  await expect(menu).toHaveCSS('width', '105px');
  await expect(menu.getByRole('menuitem')).toHaveText(['刷新', '关闭', '关闭其他', '关闭所有', '固定']);
  await menu.getByRole('menuitem', { name: '关闭', exact: true }).click();
  await expect(tags.locator('.tags-item')).toHaveCount(3);

  // The affixed tab cannot be closed from its menu either; Escape closes the menu.
  await tags.locator('.tags-item.affix').click({ button: 'right' });
  await expect(menu.getByRole('menuitem', { name: '关闭', exact: true })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);

  // Refresh keeps the page.
  await tagAction(page, '用户管理', '刷新');
  await expect(page).toHaveURL(/\/organization\/user$/);

  // Close others keeps the affixed tab and this one.
  await tagAction(page, '角色管理', '关闭其他');
  await expect(tags.locator('.tags-item')).toHaveCount(2);
  await expect(page).toHaveURL(/\/authority\/roleAdministration$/);

  // Pin it, then close all: both pinned tabs stay, and they persist across a reload.
  await tagAction(page, '角色管理', '固定');
  await openFromSidebar(page, '行政管理', '部门管理');
  await expect(tags.locator('.tags-item')).toHaveCount(3);
  await tagAction(page, '部门管理', '关闭所有');
  await expect(tags.locator('.tags-item')).toHaveCount(2);
  await expect(tags.locator('.tags-item.affix')).toHaveCount(2);
  await page.reload();
  await expect(page.getByTestId('tags-view').locator('.tags-item.affix')).toHaveCount(2);
  await expect(page.getByTestId('tags-view')).toContainText('角色管理');
});

test('top menu shows body width / 3 / 85 items and the rest under more', async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 800 });
  await signIn(page, 'admin');
  const top = page.getByTestId('top-menu');
  // 1360 / 3 / 85 = 5.33 -> 5 menus, then "更多".
  await expect(top.locator(':scope > li.ant-menu-item')).toHaveCount(5);
  await expect(top.locator(':scope > li.ant-menu-submenu')).toHaveText('更多');
  await top.locator(':scope > li.ant-menu-item').nth(1).click();
  await expect(page).toHaveURL(/\/statistics\/statistics$/);
});

test('fullscreen toggle warns when the browser does not support it', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false }));
  await signIn(page, 'school');
  await page.getByTestId('fullscreen').click();
  await expect(page.locator('.ant-message')).toContainText('您的浏览器不支持全屏');
});

test('mobile: the sidebar is a drawer whose overlay closes it', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await signIn(page, 'school');
  await expect(page.getByTestId('main-layout')).toHaveAttribute('data-device', 'mobile');
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await page.getByTestId('hamburger').click();
  const drawer = page.locator('.app-drawer');
  await expect(drawer.getByTestId('side-menu')).toBeVisible();
  await page.locator('.ant-drawer-mask').click({ position: { x: 700, y: 400 } });
  await expect(drawer.getByTestId('side-menu')).toBeHidden();
});

test('the navbar switches language and antd follows', async ({ page }) => {
  await signIn(page, 'school');
  await page.getByTestId('navbar').getByTestId('language-switch').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByTestId('side-menu')).toContainText('Permissions');
  await expect(page.getByTestId('breadcrumb')).toContainText('Workbench');
  await page.reload();
  await expect(page.getByTestId('side-menu')).toContainText('Permissions');
});

test('motion follows the system setting: none for a user who asked for less (WCAG 2.3.3)', async ({ page }) => {
  // The other tests run as such a user (playwright.config.ts); this one starts as one who did not.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await signIn(page, 'school');
  const sidebar = page.getByTestId('sidebar');
  const antdMotion = () => sidebar.evaluate((el) => getComputedStyle(el.querySelector('.ant-menu')!).getPropertyValue('--ant-motion-duration-mid').trim());
  await expect(sidebar).toHaveCSS('transition-duration', '0.2s');
  expect(await antdMotion()).toBe('0.2s');

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  await expect(sidebar).toHaveCSS('transition-duration', '0s');
  expect(await antdMotion()).toBe('0s');
});
