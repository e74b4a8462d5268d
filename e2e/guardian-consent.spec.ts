import { expect, test, type Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { apiCall, apiSignIn, axe, drawSignature, ok, signIn, zoomCheck } from './support';

/**
 * The guardian's consent on the phone (issue 30 §4; PIPL Art. 31), 390 px wide: a pupil under 14
 * (by birth date) opens their code and is told why they cannot go on alone and what to do; the
 * guardian fills in their name and relation, agrees and signs; the flow goes on to the assessment's
 * consent. A withdrawn person sees why nothing more can be answered. Every screen: axe-core (no
 * serious or critical violation), 200% zoom, a photograph in zh and en (guardian-shots/).
 */
const PHONE = { width: 390, height: 844 };
const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'guardian-shots');

async function screen(page: Page, lang: string, step: string) {
  await expect(page.locator('h1')).toBeVisible();
  await axe(page, step);
  await zoomCheck(page, step, PHONE);
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${lang}-${step}.png`), fullPage: true });
}

/** A code of a one-form plan for a new pupil of the school born in 2015 (under 14 on any test clock of 2026). */
async function pupilCode(request: Parameters<typeof apiSignIn>[0], realname: string) {
  const { token } = await apiSignIn(request, 'school');
  const { plancode } = await ok<{ plancode: string }>(
    apiCall(request, 'as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: `E2E 监护人同意 ${realname}`, formcodes: ['GAD7'] }, token),
  );
  const { cusercode } = await ok<{ cusercode: string }>(
    apiCall(request, 'as.m.cuser.insertCUser', { appid: '000000002', realname, gender: '01', birthdate: '2015-05-01' }, token),
  );
  const { assesscode } = await ok<{ assesscode: string }>(apiCall(request, 'as.m.user.insertCUserAssessCode', { cusercode, plancode }, token));
  return { assesscode, cusercode, token };
}

for (const lang of ['zh', 'en'] as const) {
  test(`a pupil under 14 waits for a guardian, who consents on the phone (${lang})`, async ({ browser, request }) => {
    test.setTimeout(180_000);
    const zh = lang === 'zh';
    const { assesscode, cusercode, token } = await pupilCode(request, zh ? '小监护测试' : 'Guardian Test');
    const context = await browser.newContext({ viewport: PHONE, locale: zh ? 'zh-CN' : 'en-US' });
    const page = await context.newPage();
    await page.goto(`/a/${assesscode}`);

    await expect(page.locator('h1')).toHaveText(zh ? '需要监护人同意' : 'A guardian’s consent is needed');
    await expect(page.getByTestId('r-guardian-why')).toContainText(zh ? '不满十四周岁' : 'under 14');
    await expect(page.getByTestId('r-notice-text')).not.toBeEmpty();
    await screen(page, lang, '01-guardian');
    // Nothing filled in: each field says what is missing.
    await page.getByTestId('r-guardian-submit').click();
    await expect(page.getByText(zh ? '请填写监护人姓名' : 'Please enter the guardian’s name')).toBeVisible();
    await expect(page.getByText(zh ? '请选择与孩子的关系' : 'Please choose the relation to the child')).toBeVisible();
    await screen(page, lang, '02-guardian-problems');

    await page.getByTestId('r-guardian-name').fill(zh ? '王芳' : 'Fang Wang');
    await page.getByTestId('r-relation-mother').check();
    await page.getByTestId('r-notice-agree').check();
    await page.getByTestId('r-guardian-submit').click();
    await expect(page.getByTestId('r-error')).toContainText(zh ? '请先签名' : 'Please sign first');
    await drawSignature(page);
    await screen(page, lang, '03-guardian-signed');
    await page.getByTestId('r-guardian-submit').click();
    // The guardian's consent counts as agreeing to the notice: next is the assessment's own consent.
    await expect(page.locator('h1')).toHaveText(zh ? '知情同意书' : 'Consent', { timeout: 30_000 });

    // Staff withdraw the consent: the page says why nothing more can be answered.
    await ok(apiCall(request, 'as.m.consent.withdrawConsent', { cusercode, reason: zh ? '家长要求' : 'Parent asked', byguardian: true }, token));
    await page.reload();
    await expect(page.locator('h1')).toHaveText(zh ? '不能继续测评' : 'The assessment cannot go on');
    await expect(page.getByTestId('r-withdrawn')).toBeVisible();
    await screen(page, lang, '04-withdrawn');
    await context.close();
  });
}

for (const lang of ['zh', 'en'] as const)
  for (const width of [1024, 1440])
    test(`staff see who misses consent: task progress and the person's page (${lang}, ${width})`, async ({ page, request }) => {
      test.setTimeout(120_000);
      const zh = lang === 'zh';
      const dir = path.join(shots, 'console');
      fs.mkdirSync(dir, { recursive: true });
      const { cusercode } = await pupilCode(request, zh ? '缺同意学生' : 'No Consent Pupil');
      const staff = await apiSignIn(request, 'school');
      const tasks = await ok<{ rows: { taskid: string }[] }>(apiCall(request, 'as.m.assess.getTaskList', { taskname: '全校期中情绪自评', page: 1, pageSize: 10 }, staff.token));
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, 'school');
      await page.context().addCookies([{ name: 'language', value: zh ? 'zh-CN' : 'en-US', url: new URL('/', page.url()).href }]);

      // The demo's running task: some pupils' guardian forms are not back.
      await page.goto(`/task/administration?progress=${tasks.rows[0]!.taskid}`);
      const drawer = page.getByTestId('progress-drawer');
      await expect(drawer.getByTestId('progress-consentmissing')).toBeVisible({ timeout: 30_000 });
      await expect(drawer.getByTestId('progress-persons').getByTestId('consent-given').first()).toBeVisible();
      await page.screenshot({ path: path.join(dir, `${lang}-${width}-progress.png`), fullPage: false });

      // The pupil's page: under 14 by birth date, no guardian's consent yet; withdrawal asks who and why.
      await page.goto(`/archives/archivesyh2?cusercode=${cusercode}`);
      const card = page.getByTestId('person-consent');
      await expect(card.getByTestId('consent-guardianmissing')).toBeVisible({ timeout: 30_000 });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(dir, `${lang}-${width}-person.png`), fullPage: true });
      await card.getByTestId('consent-withdraw').click();
      await expect(page.getByTestId('consent-withdraw-reason')).toBeVisible();
      await page.screenshot({ path: path.join(dir, `${lang}-${width}-withdraw.png`) });
      // Withdrawn: no plan can be given; renewed consent asks who and why, and a guardian is needed again.
      await page.getByTestId('consent-withdraw-reason').fill(zh ? '监护人来电要求' : 'The guardian asked by phone');
      await page.getByTestId('consent-withdraw-dialog').getByRole('button', { name: zh ? /保\s*存|确\s*定/ : /Save|OK/ }).click();
      await expect(card.getByTestId('consent-withdrawn')).toBeVisible();
      await expect(page.getByTestId('archive-give-plan')).toBeDisabled();
      await card.getByTestId('consent-renew').click();
      await page.getByTestId('consent-renew-reason').fill(zh ? '监护人签署了新的同意书' : 'The guardian signed a new form');
      await page.screenshot({ path: path.join(dir, `${lang}-${width}-renew.png`) });
      await page.getByTestId('consent-renew-dialog').getByRole('button', { name: zh ? /保\s*存|确\s*定/ : /Save|OK/ }).click();
      await expect(card.getByTestId('consent-guardianmissing')).toBeVisible();
      await expect(page.getByTestId('archive-give-plan')).toBeEnabled();
      await page.screenshot({ path: path.join(dir, `${lang}-${width}-renewed.png`), fullPage: true });
    });

for (const lang of ['zh', 'en'] as const)
  test(`the provider edits an institution's notice from its entry settings; a new text is a new version (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    const zh = lang === 'zh';
    const dir = path.join(shots, 'console');
    fs.mkdirSync(dir, { recursive: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'provider');
    await page.context().addCookies([{ name: 'language', value: zh ? 'zh-CN' : 'en-US', url: new URL('/', page.url()).href }]);
    await page.goto('/Service/terminal');
    const row = page.locator('.ant-table-row', { hasText: '滨江第一中学' });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.getByTestId('account-client-school').click();
    await page.getByTestId('client-notice').click();
    const zhText = page.getByTestId('notice-zh');
    await expect(zhText).toHaveValue(/滨江第一中学/, { timeout: 30_000 });
    await page.screenshot({ path: path.join(dir, `${lang}-1440-notice.png`) });
    await zhText.fill(`${await zhText.inputValue()}（${lang} 修订）`);
    await page.getByTestId('notice-dialog').getByRole('button', { name: zh ? /保\s*存|确\s*定/ : /Save|OK/ }).click();
    await expect(page.getByText(zh ? /已保存为第 \d+ 版/ : /Saved as version \d+/)).toBeVisible();
  });
