import { expect, test } from '@playwright/test';
import { fillSignIn, signIn } from './support';

test.describe('sign-in page', () => {
  test('loads with its title and no chart code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'AI智慧心理-管理端' })).toBeVisible();
    await expect(page).toHaveTitle('AI智慧心理-管理端');
    expect(scripts.some((s) => /echarts/i.test(s))).toBe(false);
  });

  test('switches to English and keeps the choice', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'AI smart psychology - administrator side' })).toBeVisible();
    await expect(page).toHaveTitle('AI smart psychology - administrator side');
    await page.reload();
    await expect(page.getByTestId('login-submit')).toHaveText('Sign in');
  });

  test('the language menu works from the keyboard', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('language-switch').focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: '简体中文' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(page.getByTestId('language-switch')).toBeFocused();
    await expect(page.getByTestId('login-submit')).toHaveText('Sign in');
  });

  test('asks for both fields before sending anything', async ({ page }) => {
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    await page.goto('/login');
    await page.getByTestId('login-username').fill('   ');
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('请输入账号')).toBeVisible();
    await expect(page.getByText('请输入密码')).toBeVisible();
    await expect(page.getByTestId('login-username')).toBeFocused();
    await expect(page.getByTestId('login-username')).toHaveAttribute('aria-invalid', 'true');
    await page.getByTestId('login-password').fill('x');
    await expect(page.getByText('请输入密码')).toBeHidden();
    expect(posts).toEqual([]);
  });

  test('refuses a wrong password with a clear message and stays on the page', async ({ page }) => {
    await page.goto('/login');
    await fillSignIn(page, 'bureau', 'not-the-password');
    await expect(page.getByTestId('login-error')).toContainText('账号或密码错误');
    await expect(page).toHaveURL(/\/login/);
  });

  test('signs in with a trimmed username and shows the institution', async ({ page }) => {
    await page.goto('/login');
    await fillSignIn(page, '  school  ');
    await expect(page.getByTestId('insname')).toHaveText('滨江第一中学');
    await expect(page.getByTestId('user-menu')).toContainText('school');
  });

  test('sends a signed-out visitor to sign in and back to the page asked for', async ({ page }) => {
    await page.goto('/organization/dept');
    await expect(page).toHaveURL(/\/login\?redirect=%2Forganization%2Fdept/);
    await fillSignIn(page, 'school');
    await expect(page).toHaveURL(/\/organization\/dept$/);
    await expect(page.getByTestId('breadcrumb')).toContainText('部门管理');
  });

  test('sends a signed-in user away from /login', async ({ page }) => {
    await signIn(page, 'school');
    await page.goto('/login');
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByTestId('main-layout')).toBeVisible();
  });
});

test.describe('routes from permission codes', () => {
  test('two accounts with different codes see different menus; a forbidden URL is 404', async ({ page }) => {
    await signIn(page, 'school');
    const menu = page.getByTestId('side-menu');
    await expect(menu).toContainText('权限管理');
    await expect(menu).toContainText('团体测评');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login/);

    await signIn(page, 'hospital');
    await expect(menu).toContainText('咨询管理');
    await expect(menu).not.toContainText('权限管理');
    await expect(menu).not.toContainText('团体测评');
    await page.goto('/authority/roleAdministration');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByText('页面不存在，或您没有访问该页面的权限')).toBeVisible();
  });

  test('type 004 (eldercare) sees statisticsN, not statistics1', async ({ page }) => {
    await signIn(page, 'eldercare', { path: '/statisticsN/statisticsN' });
    await expect(page.getByTestId('breadcrumb')).toContainText('数据分析');
    await expect(page).toHaveURL(/\/statisticsN\/statisticsN$/);
    await page.goto('/statistics/statistics');
    await expect(page).toHaveURL(/\/404$/);
  });

  test('type 005 sees statistics1, not statisticsN', async ({ page }) => {
    await signIn(page, 'bureau');
    await page.goto('/statisticsN/statisticsN');
    await expect(page).toHaveURL(/\/404$/);
  });

  test('marker FW01 lands on crisis warnings', async ({ page }) => {
    await signIn(page, 'warning');
    await expect(page).toHaveURL(/\/earlyWarning\/earlyWarning$/);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/earlyWarning\/earlyWarning$/);
  });

  test('marker JYJ lands on statistics', async ({ page }) => {
    await signIn(page, 'bureau');
    await expect(page).toHaveURL(/\/statistics\/statistics$/);
  });

  // Every menu route has its screen now (pages/registry.test.ts checks the registry covers them);
  // the not-built notice stays only as the fallback of a route added without a page.
  test('a page opens its own screen with its title in the tab', async ({ page }) => {
    await signIn(page, 'admin', { path: '/operations/musicManagement' });
    await expect(page).toHaveTitle(/音乐管理/);
    await expect(page.locator('.ant-table, .ant-empty').first()).toBeVisible();
    await expect(page.getByTestId('not-built')).toHaveCount(0);
  });

  test('a token without a stored permission list is a login-expired session', async ({ page }) => {
    await signIn(page, 'school');
    await page.evaluate(() => localStorage.removeItem('permissions'));
    await page.goto('/organization/dept');
    await expect(page.locator('.ant-message')).toContainText('登录已失效，请重新登录');
    await expect(page).toHaveURL(/\/login/);
  });

  test('a broken stored session is the second login-expired variant', async ({ page }) => {
    await signIn(page, 'school');
    await page.evaluate(() => localStorage.setItem('userInfo', '{broken'));
    await page.goto('/organization/dept');
    await expect(page.locator('.ant-message')).toContainText('登录状态无法恢复，请重新登录');
    await expect(page).toHaveURL(/\/login/);
  });
});
