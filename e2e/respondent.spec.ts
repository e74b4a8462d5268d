import { expect, test, type Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { agreeNotice, apiCall, apiSignIn, drawSignature, fillAnyArchive, fillArchiveQuestion, ok, axe, zoomCheck } from './support';

/**
 * The respondent channel on a phone (390 x 844): staff (demo admin, through the API) give the
 * elderly-care institution an archive form with every input type, register a person there and
 * give a plan of PHQ-9 and GAD-7; the respondent opens
 * /a/<code>, signs the consent, fills the archive form, answers one question per screen, reloads
 * mid-way and resumes at the same question, submits and sees the result (with the crisis text:
 * PHQ-9 item 9 is answered above 0). Every screen is checked with axe-core (no serious or
 * critical WCAG 2.1 A/AA violation) and at 200% zoom (see zoomCheck), and photographed in
 * Chinese and English under the test output folder (respondent-shots/).
 */
const PHONE = { width: 390, height: 844 };
const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'respondent-shots');

const INSTITUTION = 'I0003'; // the demo elderly-care institution
const APP = '000000004'; // older adults
const T = (zh: string, en: string) => ({ zh, en });
const fillIn = (no: number, inputtype: number, zh: string, en: string, extra: object = {}) => ({
  no,
  type: 0,
  inputtype,
  required: true,
  text: T(zh, en),
  options: [],
  ...extra,
});

/** The institution's own user-archive form (type 02) with one question of every input type 0-8. */
const archiveForm = {
  formname: T('E2E 老年人基本资料', 'E2E elderly archive'),
  formtype: '02',
  appids: [APP],
  instructions: T('', ''),
  licence: T('', ''),
  source: '',
  fulltext: true,
  questions: [
    fillIn(1, 8, '您的居住地区', 'Where you live'),
    fillIn(2, 7, '家里一起住的人数', 'People living with you', { range: { min: 0, max: 10 } }),
    {
      no: 3,
      type: 1,
      required: true,
      text: T('您的婚姻状况', 'Marital status'),
      options: [
        { text: T('已婚', 'Married'), score: 0 },
        { text: T('丧偶', 'Widowed'), score: 0 },
        { text: T('其他', 'Other'), score: 0 },
      ],
    },
    {
      no: 4,
      type: 2,
      required: false,
      text: T('您有哪些慢性病（可多选）', 'Chronic illnesses (any)'),
      options: [
        { text: T('高血压', 'High blood pressure'), score: 0 },
        { text: T('糖尿病', 'Diabetes'), score: 0 },
      ],
    },
    fillIn(5, 0, '您退休前的职业', 'Your work before retiring'),
    fillIn(6, 1, '您每天大约走多少步（百步）', 'Steps a day (hundreds)', { range: { min: 0, max: 500 } }),
    fillIn(7, 2, '您的身高（米）', 'Your height (m)', { range: { min: 1, max: 2.5 } }),
    fillIn(8, 3, '最近一次体检日期', 'Date of your last check-up'),
    fillIn(9, 4, '您通常几点起床', 'When you usually get up'),
    fillIn(10, 5, '下次复诊时间', 'Next appointment'),
    fillIn(11, 6, '您通常的午睡时间', 'Usual nap time'),
  ],
};

let archiveMade = false;

/** A person of the elderly-care institution with a fresh code for a PHQ-9 + GAD-7 plan. */
async function givenCode(request: Parameters<typeof apiSignIn>[0], name: string) {
  const { token } = await apiSignIn(request, 'admin');
  if (!archiveMade) {
    await ok(apiCall(request, 'as.m.assess.forms.insertForm', { musercode: INSTITUTION, definition: archiveForm }, token));
    archiveMade = true;
  }
  const { plancode } = await ok<{ plancode: string }>(
    apiCall(
      request,
      'as.m.exam.plan.insertMUserExamPlan',
      { musercode: INSTITUTION, appid: APP, planname: `E2E 手机测评 ${name}`, formcodes: ['PHQ9', 'GAD7'] },
      token,
    ),
  );
  const { cusercode } = await ok<{ cusercode: string }>(
    apiCall(request, 'as.m.cuser.insertCUser', { musercode: INSTITUTION, appid: APP, realname: name, gender: '02' }, token),
  );
  const { assesscode } = await ok<{ assesscode: string }>(
    apiCall(request, 'as.m.user.insertCUserAssessCode', { cusercode, plancode }, token),
  );
  return assesscode;
}

/** Every check of one screen, and its photograph. */
async function screen(page: Page, lang: string, step: string) {
  await expect(page.locator('h1')).toBeVisible();
  await axe(page, step);
  await zoomCheck(page, step, PHONE);
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `${lang}-${step}.png`), fullPage: true });
}

/** Fills the archive form (every input type), one question per screen, checking each screen. */
async function fillArchive(page: Page, lang: string, check?: (no: number) => Promise<void>) {
  const progress = page.getByTestId('r-progress');
  await expect(page.locator('h1')).toHaveText(lang === 'zh' ? '基本资料' : 'About you');
  const total = archiveForm.questions.length;
  for (let no = 1; no <= total; no++) {
    await expect(progress).toContainText(lang === 'zh' ? `第 ${no} 题，共 ${total} 题` : `Question ${no} of ${total}`);
    await fillArchiveQuestion(page);
    if (check) await check(no);
    await page.getByTestId('r-next').click();
  }
}

/** Answers the questions of the form now on screen with `choose(no)` (an option position). */
async function answerForm(page: Page, lang: string, tag: string, choose: (no: number) => number, options: { reloadAt?: number } = {}) {
  const progress = page.getByTestId('r-progress');
  await expect(progress).toContainText(lang === 'zh' ? '第 1 题' : 'Question 1 of');
  const total = Number((await progress.textContent())!.match(/(?:共 |Question 1 of )(\d+)(?: 题)?\s*$/)![1]);
  for (let no = 1; no <= total; no++) {
    await expect(progress).toContainText(lang === 'zh' ? `第 ${no} 题，共 ${total} 题` : `Question ${no} of ${total}`);
    if (no === 1 || no === total) await screen(page, lang, `${tag}-q${no}`);
    if (options.reloadAt === no) {
      // Closing the phone and opening the link again comes back to this very question.
      await page.reload();
      await expect(progress).toContainText(lang === 'zh' ? `第 ${no} 题，共 ${total} 题` : `Question ${no} of ${total}`);
      await expect(page.getByTestId('r-resumed')).toBeVisible();
      await screen(page, lang, `${tag}-resumed`);
    }
    await page.getByTestId(`r-option-${choose(no)}`).check();
    await page.getByTestId('r-next').click();
  }
  await expect(page.getByTestId('r-submit')).toBeVisible();
  await screen(page, lang, `${tag}-submit`);
  await page.getByTestId('r-submit').click();
}

for (const lang of ['zh', 'en'] as const) {
  test(`a respondent signs, fills the archive, answers PHQ-9 and GAD-7 with a reload mid-way and sees the result (${lang})`, async ({
    browser,
    request,
  }) => {
    test.setTimeout(300_000);
    const code = await givenCode(request, lang === 'zh' ? '手机测评人' : 'Phone Respondent');
    const context = await browser.newContext({ viewport: PHONE, locale: lang === 'zh' ? 'zh-CN' : 'en-US', hasTouch: false });
    const page = await context.newPage();
    await page.goto(`/a/${code}`);

    // The separate consent to process sensitive personal information: "agree" is needed.
    await expect(page.locator('h1')).toHaveText(lang === 'zh' ? '个人信息处理告知' : 'How your personal information is used');
    await screen(page, lang, '00-notice');
    await page.getByTestId('r-notice-submit').click();
    await expect(page.getByTestId('r-error')).toContainText(lang === 'zh' ? '请先勾选同意' : 'Please tick the box');
    await agreeNotice(page);

    // Consent: both "agree" and a signature are needed.
    await expect(page.locator('h1')).toHaveText(lang === 'zh' ? '知情同意书' : 'Consent');
    await expect(page.getByTestId('r-progress')).toContainText(lang === 'zh' ? '第 1 步' : 'Step 1 of');
    await screen(page, lang, '01-consent');
    await page.getByTestId('r-sign').click();
    await expect(page.getByTestId('r-error')).toContainText(lang === 'zh' ? '请勾选' : 'Please tick');
    await page.getByTestId('r-agree').check();
    await page.getByTestId('r-sign').click();
    await expect(page.getByTestId('r-error')).toContainText(lang === 'zh' ? '请先签名' : 'Please sign first');
    await drawSignature(page);
    await screen(page, lang, '02-consent-signed');
    await page.getByTestId('r-sign').click();

    // The archive form (the app's form type 02), when the app has one.
    await fillArchive(page, lang, (no) => screen(page, lang, `03-archive-q${String(no).padStart(2, '0')}`));

    // PHQ-9: item 9 answered "several days" (a critical answer), a reload at question 5.
    await expect(page.getByTestId('r-progress')).toContainText(lang === 'zh' ? '第 1 份问卷，共 2 份' : 'Questionnaire 1 of 2');
    await answerForm(page, lang, '04-phq9', (no) => (no === 9 ? 2 : (no % 3) + 1), { reloadAt: 5 });

    // GAD-7.
    await expect(page.getByTestId('r-progress')).toContainText(lang === 'zh' ? '第 2 份问卷，共 2 份' : 'Questionnaire 2 of 2');
    await answerForm(page, lang, '05-gad7', () => 2);

    // The result: the crisis text always (PHQ-9 item 9 > 0), then the plain-language result.
    await expect(page.locator('h1')).toHaveText(lang === 'zh' ? '测评已完成' : 'All done');
    await expect(page.getByTestId('r-crisis')).toBeVisible();
    await screen(page, lang, '06-result');

    // The code is used up now: opening it on another phone says so clearly.
    const other = await browser.newContext({ viewport: PHONE, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
    const second = await other.newPage();
    await second.goto(`/a/${code}`);
    await expect(second.getByTestId('r-error')).toBeVisible();
    await screen(second, lang, '07-used-code');
    await other.close();
    await context.close();
  });
}

test('the start page: an unknown code is refused clearly; a network failure offers "try again" and keeps the answer', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: PHONE, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto('/a');
  await screen(page, 'zh', '00-start');
  await page.getByTestId('r-start').click();
  await expect(page.getByTestId('r-error')).toContainText('请输入测评码');
  await page.getByTestId('r-code').fill('ZZZZ-ZZZZ-ZZ');
  await page.getByTestId('r-start').click();
  await expect(page.getByTestId('r-error')).toBeVisible();
  await expect(page.getByTestId('r-error')).not.toContainText('请输入测评码');
  await screen(page, 'zh', '00-start-unknown');

  // A network failure while saving an answer: the answer stays, "try again" saves it.
  const code = await givenCode(request, '断网测评人');
  await page.goto(`/a/${code}`);
  await agreeNotice(page);
  await page.getByTestId('r-agree').check();
  await drawSignature(page);
  await page.getByTestId('r-sign').click();
  await fillArchive(page, 'zh');
  await expect(page.getByTestId('r-progress')).toContainText('第 1 份问卷，共 2 份');
  await expect(page.getByTestId('r-progress')).toContainText('第 1 题，共 10 题');
  await page.route('**/api/as.c.exam.saveProgress/**', (route) => route.abort('internetdisconnected'));
  await page.getByTestId('r-option-2').check();
  await page.getByTestId('r-next').click();
  await expect(page.getByTestId('r-error')).toContainText('网络连接失败');
  await expect(page.getByTestId('r-option-2')).toBeChecked();
  await screen(page, 'zh', '08-network-error');
  await page.unroute('**/api/as.c.exam.saveProgress/**');
  await page.getByTestId('r-retry').click();
  await expect(page.getByTestId('r-progress')).toContainText('第 2 题');
  await context.close();
});

test('an unknown QR entry link says so', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/r/unknown-entry-token-0000');
  await expect(page.getByTestId('r-error')).toBeVisible();
  await screen(page, 'en', '09-unknown-entry');
  await context.close();
});

test('through an institution’s QR link: register, sign, fill the archive, answer and see the plain-language result with the hotline', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  // The hospital's respondent entry, set by its provider: results shown, a hotline of its own.
  const { token } = await apiSignIn(request, 'provider');
  const { qrcodeurl } = await ok<{ qrcodeurl: string }>(
    apiCall(
      request,
      'as.m.user.createMUserClient',
      { musercode: 'I0002', title: '仁和妇幼心理测评', consent: '本院知情同意书', appids: ['000000001'], showresult: 1, hotline: '0571-88886666' },
      token,
    ),
  );
  const entryPath = new URL(qrcodeurl).pathname;
  expect(entryPath).toMatch(/^\/r\/.{20,}$/);

  const context = await browser.newContext({ viewport: PHONE, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(entryPath);
  await expect(page.getByTestId('r-choice-0')).toBeVisible();
  await page.getByTestId('r-choice-0').check();
  await page.getByTestId('r-realname').fill('扫码孕妈');
  await page.getByTestId('r-gender-02').check();
  await page.getByTestId('r-birthdate').fill('1995-06-01');
  await page.getByTestId('r-phone').fill('13900001111');
  await screen(page, 'zh', '10-qr-register');
  await page.getByTestId('r-register').click();

  await agreeNotice(page);
  await expect(page.getByText('本院知情同意书')).toBeVisible();
  await page.getByTestId('r-agree').check();
  await drawSignature(page);
  await page.getByTestId('r-sign').click();
  await fillAnyArchive(page);

  // Every questionnaire of the chosen stage, the middle option throughout, until the result.
  const next = async () =>
    (await page.locator('h1').textContent()) === '测评已完成'
      ? 'done'
      : ((await page.getByTestId('r-progress').textContent()) ?? '').includes('第 1 题')
        ? 'form'
        : 'wait';
  for (let form = 1; ; form++) {
    await expect.poll(next).not.toBe('wait');
    if ((await next()) === 'done') break;
    expect(form, 'more questionnaires than any stage has').toBeLessThan(6);
    await answerForm(page, 'zh', `11-qr-form${form}`, () => 2);
  }
  await expect(page.locator('h1')).toHaveText('测评已完成');
  await expect(page.getByTestId('r-result').first()).toBeVisible();
  await expect(page.locator('main')).toContainText('0571-88886666');
  // Every hotline in the crisis text is one tap from a call (issue 28 item 15).
  await expect(page.getByTestId('r-crisis').locator('a[href="tel:057188886666"]')).toHaveText('0571-88886666');
  await expect(page.getByTestId('r-crisis').locator('a[href="tel:12356"]').first()).toBeVisible();
  await screen(page, 'zh', '12-qr-result');
  await context.close();

  // Staff find the person who registered through the link.
  const { token: hospital } = await apiSignIn(request, 'hospital');
  const persons = await ok<{ rows: { realname: string }[] }>(
    apiCall(request, 'as.m.cuser.getCUserPageList', { realname: '扫码孕妈', page: 1, pageSize: 20 }, hospital),
  );
  expect(persons.rows.map((r) => r.realname)).toEqual(['扫码孕妈']);
});
