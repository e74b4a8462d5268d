/**
 * Giving plans (issue 28 items 2 and 3), as a maternity hospital does it:
 * - the hospital gives ONE stage of its plan to a person: the stages load (they answered "no
 *   permission" before) and the code appears;
 * - a plan holding a scale without its item text (the EPDS: "Item 1 / Option 1") cannot be given:
 *   the dialog warns when the plan is chosen, the stage holding it cannot be chosen, giving the
 *   whole plan is refused with the server's message naming the scale and the scale editor; the
 *   plan page and the scale library mark the scale.
 * Everything made here is removed again (other spec files share the demo database).
 * Screenshots at 1024 and 1440 px in zh and en go to give-plan-shots/.
 */
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiCall, apiSignIn, pick, setLanguage, signIn } from './support';

const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'give-plan-shots');
const run = `${Date.now() % 100000}`;

async function ok<T>(request: APIRequestContext, name: string, data: unknown, token?: string): Promise<T> {
  const res = await apiCall(request, name, data, token);
  expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
  return res.data as T;
}

/** A fresh pregnant woman of the hospital (its population app), removed at the end. */
async function newMother(request: APIRequestContext, token: string, realname: string) {
  return (await ok<{ cusercode: string }>(request, 'as.m.cuser.insertCUser', { appid: '000000001', realname, gender: '02' }, token)).cusercode;
}

/** Opens the give dialog of the person's row on the maternity page. */
async function openGive(page: Page, realname: string) {
  await page.goto(`/empower/maternity?realname=${encodeURIComponent(realname)}`);
  const row = page.locator('tr', { hasText: realname });
  await row.getByTestId(/^give-/).click();
  const dialog = page.locator('.ant-modal', { has: page.getByTestId('give-submit') });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('giving a plan', () => {
  test.describe.configure({ timeout: 240_000 });

  test('a hospital gives one stage of its plan to a person and the code appears', async ({ page, request }) => {
    const hospital = await apiSignIn(request, 'hospital');
    const realname = `阶段测${run}`;
    const cusercode = await newMother(request, hospital.token, realname);
    const refusals: string[] = [];
    page.on('response', async (res) => {
      if (!res.url().includes('/api/')) return;
      const body = await res.json().catch(() => null);
      if (body && body.errorCode) refusals.push(`${res.url()} ${body.errorCode}`);
    });
    try {
      await signIn(page, 'hospital');
      await page.setViewportSize({ width: 1440, height: 900 });
      const dialog = await openGive(page, realname);
      await pick(page, dialog.locator('.ant-form-item', { hasText: '测评方案' }), '孕产期心理健康筛查');
      const stage = dialog.locator('.ant-form-item', { hasText: '测评阶段' });
      await pick(page, stage, '孕中期（14-28周）');
      await page.screenshot({ path: path.join(shots, 'give-stage-zh-1440.png') });
      await dialog.getByTestId('give-submit').click();
      const slip = page.getByTestId('code-slip');
      await expect(slip).toHaveCount(1);
      await expect(slip).toContainText('孕中期（14-28周）');
      const code = (await slip.getByTestId('assess-code').textContent())?.trim() ?? '';
      expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}$/);
      expect(refusals).toEqual([]);
      await page.screenshot({ path: path.join(shots, 'give-stage-code-zh-1440.png') });

      // The code holds that stage's scales only.
      const given = await ok<{ assesscode: string; stagecode: string; formcount: number }[]>(request, 'as.m.cuser.getCUserPlan', { cusercode }, hospital.token);
      expect(given).toEqual([expect.objectContaining({ assesscode: code, stagecode: 'ST-M2', formcount: 2 })]);

      for (const lang of ['en-US', 'zh-CN']) {
        await setLanguage(page, lang);
        for (const width of [1024, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          const d = await openGive(page, realname);
          await pick(page, d.locator('.ant-form-item').first(), '孕产期心理健康筛查');
          await d.locator('.ant-form-item').nth(1).locator('.ant-select').click();
          await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveCount(4);
          await page.screenshot({ path: path.join(shots, `give-stages-${lang}-${width}.png`) });
          await page.keyboard.press('Escape');
          await page.keyboard.press('Escape');
        }
      }
      expect(refusals).toEqual([]);
    } finally {
      // Put the demo back: the code withdrawn (its count returned), the person removed.
      for (const g of await ok<{ assesscode: string }[]>(request, 'as.m.cuser.getCUserPlan', { cusercode }, hospital.token))
        await ok(request, 'as.m.cuser.deleteCUserPlan', { assesscode: g.assesscode }, hospital.token);
      await ok(request, 'as.m.cuser.deleteCUser', { cusercode }, hospital.token);
    }
  });

  test('a plan holding a scale without its item text cannot be given, and the plan and scale pages mark the scale', async ({ page: hospitalPage, browser, request }) => {
    let page = hospitalPage;
    const provider = await apiSignIn(request, 'provider');
    const hospital = await apiSignIn(request, 'hospital');
    const planname = `E2E 含EPDS计划${run}`;
    const stagename = `E2E 含EPDS阶段${run}`;
    const { stagecode } = await ok<{ stagecode: string }>(
      request,
      'as.m.app.exam.insertExamStage',
      { appid: '000000001', categoryid: 'C0101', stagename, formcodes: ['EPDS', 'PHQ9'] },
      provider.token,
    );
    const { stagecode: goodStage } = await ok<{ stagecode: string }>(
      request,
      'as.m.app.exam.insertExamStage',
      { appid: '000000001', categoryid: 'C0101', stagename: `E2E 情绪阶段${run}`, formcodes: ['PHQ9'] },
      provider.token,
    );
    const { plancode } = await ok<{ plancode: string }>(
      request,
      'as.m.exam.plan.insertMUserExamPlan',
      { appid: '000000001', planname, stages: [{ stagecode: goodStage }, { stagecode }], formcodes: [] },
      provider.token,
    );
    const today = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { authid } = await ok<{ authid: string }>(
      request,
      'as.m.exam.plan.authorizePlan',
      { plancode, musercode: 'I0002', count: 5, startdate: today, enddate: `${Number(today.slice(0, 4)) + 1}${today.slice(4)}` },
      provider.token,
    );
    const realname = `无原文测${run}`;
    const cusercode = await newMother(request, hospital.token, realname);
    try {
      await signIn(page, 'hospital');
      for (const lang of ['zh-CN', 'en-US']) {
        await setLanguage(page, lang);
        for (const width of [1024, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          const dialog = await openGive(page, realname);
          await pick(page, dialog.locator('.ant-form-item').first(), planname);
          const alert = dialog.getByTestId('textless-alert');
          await expect(alert).toContainText(lang === 'zh-CN' ? '爱丁堡产后抑郁量表（EPDS）' : 'Edinburgh Postnatal Depression Scale (EPDS)');
          await expect(alert).toContainText(lang === 'zh-CN' ? '量表编辑器' : 'scale editor');
          // The stage holding it cannot be chosen; the other can.
          await dialog.locator('.ant-form-item').nth(1).locator('.ant-select').click();
          const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
          await expect(options.filter({ hasText: stagename })).toHaveClass(/ant-select-item-option-disabled/);
          await expect(options.filter({ hasText: `E2E 情绪阶段${run}` })).not.toHaveClass(/ant-select-item-option-disabled/);
          await page.screenshot({ path: path.join(shots, `textless-give-${lang}-${width}.png`) });
          await page.keyboard.press('Escape');
          // Giving the whole plan: refused with the server's reason, no code.
          await dialog.getByTestId('give-submit').click();
          const toast = page.locator('.ant-message-notice').last();
          await expect(toast).toContainText(lang === 'zh-CN' ? '没有题目原文' : 'has no item text');
          await expect(toast).toContainText(lang === 'zh-CN' ? '量表编辑器' : 'scale editor');
          await expect(page.getByTestId('code-slip')).toHaveCount(0);
          await page.screenshot({ path: path.join(shots, `textless-refused-${lang}-${width}.png`) });
          await page.keyboard.press('Escape');
        }
      }
      expect(await ok<unknown[]>(request, 'as.m.cuser.getCUserPlan', { cusercode }, hospital.token)).toEqual([]);

      // The provider's plan page and scale library mark the scale (its own browser context: a
      // signed-in page opening /login is sent on to the console).
      const context = await browser.newContext();
      page = await context.newPage();
      await signIn(page, 'provider');
      for (const lang of ['zh-CN', 'en-US']) {
        await setLanguage(page, lang);
        for (const width of [1024, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`/evaluating/newInstitutionalEvaluation?planname=${encodeURIComponent(planname)}`);
          await page.locator('tr', { hasText: planname }).getByText(planname).first().click();
          const detail = page.getByTestId('plan-detail');
          await expect(detail.getByTestId('plan-form-EPDS').getByTestId('textless-tag')).toBeVisible();
          await expect(detail.getByTestId('plan-form-PHQ9').getByTestId('textless-tag')).toHaveCount(0);
          await expect(detail.getByTestId('textless-alert')).toBeVisible();
          await page.screenshot({ path: path.join(shots, `textless-plan-${lang}-${width}.png`) });
          await page.keyboard.press('Escape');
          await expect(detail).toBeHidden();

          // The plan editor warns too. A failed read of its plan's stages shows the error and a
          // retry in the editor; while they are on their way it shows the loading state instead of
          // fields, and Save is off.
          let release = () => {};
          const held = new Promise<void>((r) => (release = r));
          let reads = 0;
          await page.route('**/api/as.m.exam.plan.getPlanStage/**', async (route) => {
            if (++reads === 1) return route.abort('connectionfailed');
            await held;
            await route.continue();
          });
          await page.locator('tr', { hasText: planname }).first().getByRole('button', { name: lang === 'zh-CN' ? /修\s*改$/ : /Edit$/ }).click();
          const editor = page.locator('.ant-drawer', { has: page.getByTestId('plan-save') });
          await expect(editor.getByTestId('list-error')).toContainText(lang === 'zh-CN' ? '数据加载失败' : 'Failed to load data');
          await expect(editor.getByTestId('plan-save')).toBeDisabled();
          await page.screenshot({ path: path.join(shots, `editor-error-${lang}-${width}.png`) });
          await editor.getByRole('button', { name: lang === 'zh-CN' ? /重\s*试/ : 'Retry' }).click();
          await expect(editor.getByRole('status')).toContainText(lang === 'zh-CN' ? '加载中' : 'Loading');
          await expect(editor.getByTestId('list-error')).toHaveCount(0);
          await expect(editor.getByTestId('plan-name')).toHaveCount(0);
          await expect(editor.getByTestId('plan-save')).toBeDisabled();
          await page.screenshot({ path: path.join(shots, `editor-loading-${lang}-${width}.png`) });
          release();
          await expect(editor.getByTestId('plan-name')).toHaveValue(planname);
          await expect(editor.getByTestId('plan-save')).toBeEnabled();
          await page.unroute('**/api/as.m.exam.plan.getPlanStage/**');
          await expect(editor.getByTestId('textless-alert')).toContainText(lang === 'zh-CN' ? '爱丁堡产后抑郁量表（EPDS）' : 'Edinburgh Postnatal Depression Scale (EPDS)');
          await page.screenshot({ path: path.join(shots, `textless-editor-${lang}-${width}.png`) });
          await page.keyboard.press('Escape');
          await expect(editor).toBeHidden();

          await page.goto('/evaluating/evaluationScale');
          const epds = page.locator('tr', { hasText: 'EPDS' }).first();
          await expect(epds.getByTestId('textless-tag')).toBeVisible();
          await expect(page.locator('tr', { hasText: 'PHQ9' }).first().getByTestId('textless-tag')).toHaveCount(0);
          await epds.getByTestId('textless-tag').hover();
          await expect(page.locator('.ant-tooltip:visible')).toContainText(lang === 'zh-CN' ? '题目为原文' : 'Items are the original wording');
          await page.screenshot({ path: path.join(shots, `textless-scales-${lang}-${width}.png`) });
        }
      }
    } finally {
      await ok(request, 'as.m.cuser.deleteCUser', { cusercode }, hospital.token);
      await ok(request, 'as.m.exam.plan.revokePlanAuthorize', { authid }, provider.token);
      await ok(request, 'as.m.exam.plan.deleteMUserExamPlan', { plancode }, provider.token);
      await ok(request, 'as.m.app.exam.deleteExamStage', { stagecode }, provider.token);
      await ok(request, 'as.m.app.exam.deleteExamStage', { stagecode: goodStage }, provider.token);
    }
  });
});
