import { expect, test, type Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { apiCall, apiSignIn, axe, setLanguage, signIn } from './support';

/**
 * Consultation registration end to end: a person opens the school's QR entry on a phone
 * (390 px), chooses "request a consultation", leaves a name and phone, answers the built-in
 * registration form one question per screen and sees the thanks with the school's helpline;
 * every screen passes axe-core (no serious or critical WCAG 2.1 A/AA violation) and reflows at
 * 200% zoom. Then staff find the request in the registration list and open its answers. Shots
 * (respondent zh and en, console at 1024 and 1440 px in zh and en) go to registration-shots/.
 */
const PHONE = { width: 390, height: 844 };
const HOTLINE = '0571-86001234';
const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'registration-shots');

/** 200% zoom on a 390 px phone is a 195 px layout: nothing may stick out sideways. */
async function zoomCheck(page: Page, step: string) {
  await page.setViewportSize({ width: PHONE.width / 2, height: PHONE.height / 2 });
  const problems = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.querySelectorAll<HTMLElement>('h1, h2, p, label, legend, button, input, a')) {
      const r = el.getBoundingClientRect();
      if (r.width && r.height && (r.right > width + 1 || r.left < -1)) out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}"`);
    }
    return out;
  });
  await page.setViewportSize(PHONE);
  expect(problems, `200% zoom, ${step}`).toEqual([]);
}

async function screen(page: Page, lang: string, step: string) {
  await expect(page.locator('h1')).toBeVisible();
  await axe(page, step);
  await zoomCheck(page, step);
  await page.screenshot({ path: path.join(shots, `respondent-${lang}-${step}.png`), fullPage: true });
}

test('a person requests a consultation through the QR entry; staff see it and open its answers', async ({ page, request }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(shots, { recursive: true });
  const provider = await apiSignIn(request, 'provider');
  const made = await apiCall(request, 'as.m.user.createMUserClient', { musercode: 'I0001', title: '滨江一中心理中心', appids: ['000000002'], showresult: 1, hotline: HOTLINE }, provider.token);
  expect(made.errorCode, made.errorMsg).toBe(0);
  const entry = new URL((made.data as { qrcodeurl: string }).qrcodeurl).pathname;

  await page.setViewportSize(PHONE);
  const names = { zh: '扫码咨询小林', en: 'QR Lin' };
  for (const lang of ['zh', 'en'] as const) {
    await page.goto(entry);
    await expect(page.getByTestId('r-consult-offer')).toBeVisible();
    if (lang === 'en' && (await page.getByTestId('r-lang').textContent())?.includes('English')) await page.getByTestId('r-lang').click();
    await expect(page.getByTestId('r-consult')).toHaveText(lang === 'zh' ? '预约心理咨询' : 'Request a consultation');
    await screen(page, lang, '1-entry');
    await page.getByTestId('r-consult').click();

    // Contact: both fields are checked on the page first.
    await page.getByTestId('r-consult-next').click();
    await expect(page.getByTestId('r-consult-realname')).toHaveAttribute('aria-invalid', 'true');
    await page.getByTestId('r-consult-realname').fill(names[lang]);
    await page.getByTestId('r-consult-phone').fill('13900002222');
    await screen(page, lang, '2-contact');
    await page.getByTestId('r-consult-next').click();

    // The form, one question per screen: a required question cannot be skipped.
    await expect(page.getByTestId('r-question')).toBeVisible();
    await page.getByTestId('r-next').click();
    await expect(page.getByRole('alert')).toBeVisible();
    await page.getByTestId('r-option-1').check();
    await page.getByTestId('r-option-4').check();
    await screen(page, lang, '3-question');
    await page.getByTestId('r-next').click();
    await page.getByTestId('r-fill').fill(lang === 'zh' ? '最近总是失眠' : 'I cannot sleep lately');
    await page.getByTestId('r-next').click();
    for (const option of [1, 3, 1]) {
      await page.getByTestId(`r-option-${option}`).check();
      await page.getByTestId('r-next').click();
    }
    await expect(page.getByTestId('r-consult-thanks')).toBeVisible();
    await expect(page.getByTestId('r-consult-hotline')).toHaveText(HOTLINE);
    await screen(page, lang, '4-thanks');
  }

  // Staff: the school's registration list shows the request; the drawer shows the answers in words.
  await page.setViewportSize({ width: 1440, height: 860 });
  await signIn(page, 'school', { path: '/registration/registrationForm' });
  const row = page.locator('tr.ant-table-row', { hasText: names.zh });
  // The first console page load parses the whole console bundle: slow on a busy 2-core machine.
  await expect(row).toBeVisible({ timeout: 60_000 });
  await expect(row).toContainText('139****2222');
  await row.getByText(names.zh).click();
  const drawer = page.getByTestId('registration-drawer');
  await expect(drawer.getByTestId('registration-answers')).toContainText('情绪困扰（焦虑、低落等）、睡眠问题');
  await expect(drawer).toContainText('最近总是失眠');
  await expect(drawer).toContainText('13900002222');

  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto('/registration/registrationForm');
      await expect(page.locator('tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: path.join(shots, `console-${lang}-${width}.png`) });
      await page.locator('tr.ant-table-row', { hasText: names.zh }).getByText(names.zh).click();
      await expect(page.getByTestId('registration-answers')).toBeVisible();
      await page.screenshot({ path: path.join(shots, `console-drawer-${lang}-${width}.png`) });
      if (width === 1440) {
        await page.locator('.ant-drawer-close').click();
        await page.getByTestId('registration-add').click();
        await expect(page.getByTestId('archive-q1')).toBeVisible();
        await page.screenshot({ path: path.join(shots, `console-fill-${lang}.png`) });
      }
    }
  }
});
