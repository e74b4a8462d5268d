import { expect, test, type Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { confirmDialog, setLanguage, signIn } from './support';

const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'system-shots');

/** The first table of a page can take a while on a busy machine (several test runs share it). */
const FIRST_LOAD = { timeout: 30_000 };

/** The top-level entries of the sidebar, in order. */
async function topMenus(page: Page): Promise<string[]> {
  const menu = page.getByTestId('side-menu');
  await expect(menu).toBeVisible();
  const titles = await menu.locator(':scope > li').evaluateAll((items) => items.map((li) => (li.querySelector('.ant-menu-title-content') as HTMLElement | null)?.innerText.trim() ?? ''));
  return titles.filter(Boolean);
}

test.describe('permission management and administration', () => {
  test('a role created with menus, given to a new staff user, shows that user exactly those menus', async ({ page, browser }) => {
    test.setTimeout(120_000); // two sign-ins and two dialogs: over a minute on a loaded machine
    await signIn(page, 'school', { path: '/authority/roleAdministration' });
    await expect(page.getByRole('cell', { name: '心理咨询师' })).toBeVisible(FIRST_LOAD);

    // The role: group assessment (00040 with its pages) and crisis warnings (00013, 00046).
    await page.getByTestId('role-add').click();
    const dialog = page.getByRole('dialog', { name: '添加角色' });
    await dialog.getByTestId('role-name').fill('团体预警员');
    await dialog.getByTestId('role-key').fill('groupwarn');
    const tree = dialog.getByTestId('menu-tree');
    for (const code of ['00040', '00013']) await tree.locator('.ant-tree-treenode', { hasText: code }).first().locator('.ant-tree-checkbox').click();
    await expect(tree.locator('.ant-tree-treenode', { hasText: '00046' }).first().locator('.ant-tree-checkbox-checked')).toBeVisible();
    await dialog.getByRole('button', { name: '确 定' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('cell', { name: '团体预警员' })).toBeVisible();

    // The staff user holding it.
    await page.goto('/organization/user');
    await page.getByTestId('user-add').click();
    const form = page.getByRole('dialog', { name: '添加用户' });
    await form.getByTestId('user-realname').fill('周老师');
    await form.getByTestId('user-sysusername').fill('groupwarn1');
    await form.getByTestId('user-password').fill('Warn2468');
    await form.getByTestId('user-confirm').fill('Warn2468');
    await form.getByTestId('user-roles').click();
    await page.locator('.ant-select-item-option', { hasText: '团体预警员' }).click();
    await form.getByRole('button', { name: '确 定' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('cell', { name: 'groupwarn1' })).toBeVisible();

    // That user signs in and sees exactly the role's menus.
    const context = await browser.newContext();
    const staff = await context.newPage();
    await signIn(staff, 'groupwarn1', { password: 'Warn2468' });
    const menus = await topMenus(staff);
    // Early warning has one page, so the sidebar shows that page (危机预警) in its place.
    expect(menus).toEqual(['团体测评', '危机预警']);
    await staff.getByTestId('side-menu').getByText('团体测评').click();
    for (const child of ['团体管理', '任务管理', 'AI团体报告']) await expect(staff.getByTestId('side-menu')).toContainText(child);
    await staff.goto('/authority/roleAdministration');
    await expect(staff.getByText('404').first()).toBeVisible();
    await context.close();
  });

  test('a department that still has users cannot be deleted, with a clear message', async ({ page }) => {
    await signIn(page, 'school', { path: '/organization/dept' });
    await expect(page.getByRole('cell', { name: '心理健康中心' })).toBeVisible(FIRST_LOAD);
    await page.getByTestId('dept-delete-D0002').click();
    await confirmDialog(page, '心理健康中心');
    // The demo's two staff users of the centre (earlier specs may have added more).
    await expect(page.getByText(/^部门“心理健康中心”下还有 \d+ 个用户，不能删除；请先将用户调到其他部门$/)).toBeVisible();
    await page.getByTestId('list-search').getByRole('button', { name: /重\s*置/ }).click();
    await expect(page.getByRole('cell', { name: '心理健康中心' })).toBeVisible();

    // An empty department goes.
    await page.getByTestId('dept-delete-D0004').click();
    await confirmDialog(page, '高一年级组');
    await expect(page.getByText('删除成功')).toBeVisible();
    await expect(page.getByRole('cell', { name: '高一年级组' })).toBeHidden();
  });

  test('a provider whose institution list failed to load sees the failure in the picker, with a retry', async ({ page }) => {
    const institutions = '**/api/as.m.system.muser.selectInstitutionList/**';
    await signIn(page, 'provider');
    for (const lang of ['zh-CN', 'en-US']) {
      const zh = lang === 'zh-CN';
      await setLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.route(institutions, (route) => route.abort('connectionfailed'));
        await page.goto('/organization/user');
        await page.getByTestId('user-add').click();
        // Hidden, the field would let the provider add the user to its own account unawares.
        const field = page.getByTestId('user-form').locator('.ant-form-item', { hasText: zh ? '所属机构' : 'Institution' });
        await field.locator('.ant-select').click();
        const failed = page.getByTestId('options-failed');
        await expect(failed).toContainText(zh ? '数据加载失败' : 'Failed to load data', FIRST_LOAD);
        await page.screenshot({ path: path.join(shots, `institution-failed-${lang}-${width}.png`) });
        await page.unroute(institutions);
        await failed.getByRole('button', { name: zh ? /重\s*试/ : 'Retry' }).click();
        await expect(page.locator('.ant-select-item-option', { hasText: '滨江第一中学' })).toBeVisible();
      }
    }
  });

  test('the user list masks phones, filters by department, and a disabled user is signed out', async ({ page, browser }) => {
    const context = await browser.newContext();
    const teacher = await context.newPage();
    await signIn(teacher, 'teacher');

    await signIn(page, 'school', { path: '/organization/user' });
    await expect(page.getByRole('cell', { name: '138****5678' })).toBeVisible(FIRST_LOAD);
    await page.getByTestId('user-dept-tree').getByText('德育处').click();
    await expect(page.getByRole('cell', { name: 'teacher' })).toBeHidden();
    // The chosen department is in the address: a reload shows the same list, the node still chosen.
    await expect(page).toHaveURL(/[?&]deptid=/);
    await page.reload();
    await expect(page.getByTestId('user-dept-tree').locator('.ant-tree-node-selected')).toHaveText('德育处');
    await expect(page.locator('.ant-table-placeholder')).toBeVisible(FIRST_LOAD);
    await expect(page.getByRole('cell', { name: 'teacher' })).toBeHidden();
    await page.getByTestId('user-dept-tree').getByText('德育处').click();
    await expect(page.getByRole('cell', { name: 'teacher', exact: true })).toBeVisible();
    await expect(page).not.toHaveURL(/deptid=/);

    await page.getByTestId('user-enabled-teacher').click();
    await confirmDialog(page, 'teacher');
    await expect(page.getByText('已停用“teacher”')).toBeVisible();
    await teacher.reload();
    await expect(teacher.getByText('用户身份已失效，请重新登录').first()).toBeVisible();
    await context.close();
  });
});
