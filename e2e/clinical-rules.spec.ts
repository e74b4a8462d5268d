import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiCall, apiSignIn, setLanguage, signIn, switchLanguage } from './support';

/**
 * Issue 31 §1 on the report page: an SCL-90 report shows the positive-item count, the negative-item
 * count and the positive-symptom mean beside the total and the factors; an SDS report names the
 * scoring convention it was scored with and its source. zh and en, 1024 and 1440 px.
 */
const SHOTS = path.join(os.tmpdir(), 'xinli-clinical-rules-shots');

type Api = (name: string, data: unknown, token?: string) => Promise<Record<string, any>>;

/**
 * A report of `formcode` as a respondent submits it: the demo gives only the forms whose wording
 * ships, so the school copies the built-in form, enters its (licensed) wording, gives it to a new
 * student and the student answers `option(no)` on each of `count` items.
 */
async function submittedReport(
  request: APIRequestContext,
  formcode: string,
  count: number,
  option: (no: number) => number,
): Promise<string> {
  const call: Api = async (name, data, token) => {
    const res = await apiCall(request, name, data, token);
    expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
    return res.data as Record<string, any>;
  };
  const staff = (await apiSignIn(request, 'school')).token;
  const copy = (await call('as.m.assess.forms.copyForm', { formcode }, staff)).formcode as string;
  const got = await call('as.m.assess.forms.getForm', { formcode: copy }, staff);
  const { formcode: _c, version: _v, ...body } = got.definition;
  const questions = body.questions.map((q: { no: number }) => ({ ...q, text: { zh: `授权题目${q.no}`, en: `Licensed item ${q.no}` } }));
  await call(
    'as.m.assess.forms.updateForm',
    { formcode: copy, revision: got.revision, definition: { ...body, appids: ['000000002'], fulltext: true, questions } },
    staff,
  );
  const person = await call('as.m.cuser.insertCUser', { appid: '000000002', realname: `规则${formcode}`, gender: '02' }, staff);
  const plan = await call(
    'as.m.exam.plan.insertMUserExamPlan',
    { appid: '000000002', planname: `规则演示${formcode}${Date.now() % 100000}`, formcodes: [copy] },
    staff,
  ); // wall-clock: a unique plan name on a shared server
  const code = await call('as.m.user.insertCUserAssessCode', { cusercode: person.cusercode, plancode: plan.plancode }, staff);
  const token = (await call('as.c.exam.start', { assesscode: code.assesscode })).token as string;
  const privacy = (await call('as.c.exam.getSession', {}, token)).privacy;
  if (!privacy.agreed) await call('as.c.exam.agreeNotice', { version: privacy.version }, token);
  const answers = Array.from({ length: count }, (_, i) => ({ no: i + 1, option: option(i + 1) }));
  return (await call('as.c.exam.submit', { formcode: copy, answers }, token)).reportid as string;
}

test.describe('clinical rules on the report page', () => {
  test.describe.configure({ timeout: 300_000 });

  test('SCL-90 figures and the SDS convention line, in zh and en at 1024 and 1440 px', async ({ page, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    // SCL-90: "其他" at 2 (screen positive); SDS: every item "some of the time", item 19 "none".
    const other = new Set([19, 44, 59, 60, 64, 66, 89]);
    const scl = await submittedReport(request, 'SCL90', 90, (no) => (other.has(no) ? 2 : 1));
    const reversed = new Set([2, 5, 6, 11, 12, 14, 16, 17, 18, 20]);
    const sds = await submittedReport(request, 'SDS', 20, (no) => (no === 19 ? 1 : reversed.has(no) ? 3 : 2));
    await signIn(page, 'school');
    const words = {
      'zh-CN': {
        figures: ['阳性项目数', '阴性项目数', '阳性症状均分'],
        convention: '计分约定：标准分＝粗分×1.25 取整数部分；界值 53/63/73（中国常模）',
      },
      'en-US': {
        figures: ['Positive items', 'Negative items', 'Positive symptom distress index'],
        convention: 'Scoring convention: Standard score = raw × 1.25 truncated (whole part); cut-offs 53/63/73 (Chinese norm)',
      },
    } as const;
    // Each report loaded once a language, then photographed at each width.
    for (const lang of ['zh-CN', 'en-US'] as const) {
      await setLanguage(page, lang);
      await page.goto(`/echarts/web?reportid=${scl}`);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        const indicators = page.getByTestId('report-indicators');
        for (const f of words[lang].figures)
          await expect(indicators.locator('tr.ant-table-row', { hasText: f })).toBeVisible({ timeout: 60_000 });
        await expect(indicators.getByTestId('report-convention')).toHaveCount(0);
        await indicators.screenshot({ path: path.join(SHOTS, `scl90-${lang}-${width}.png`) });
      }
      await page.goto(`/echarts/web?reportid=${sds}`);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        const line = page.getByTestId('report-convention');
        await expect(line).toContainText(words[lang].convention, { timeout: 60_000 });
        await expect(line).toContainText(/王春芳/);
        await page.getByTestId('report-indicators').screenshot({ path: path.join(SHOTS, `sds-${lang}-${width}.png`) });
      }
    }
  });

  test('staff choose the SDS convention in the scale library (zh and en)', async ({ page }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, 'school', { path: '/evaluating/evaluationScale' });
    for (const lang of ['zh-CN', 'en-US'] as const) {
      await switchLanguage(page, lang);
      await page.getByTestId('scale-conventions').click();
      const dialog = page.getByTestId('conventions-dialog');
      await expect(dialog.getByTestId('convention-SDS')).toBeVisible({ timeout: 60_000 });
      await expect(dialog.getByTestId('convention-SAS')).toBeVisible();
      await page.screenshot({ path: path.join(SHOTS, `conventions-${lang}-1440.png`) });
      await page.keyboard.press('Escape');
    }
  });

  test('the scale editor shows the SCL-90 screening rule with its source and its items a page at a time (zh and en, 1024 and 1440 px)', async ({
    page,
  }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await signIn(page, 'school', { path: '/evaluating/evaluationScale' });
    const tab = { 'zh-CN': '危机条目、效度与筛查', 'en-US': 'Critical items, validity and screening' } as const;
    const items = { 'zh-CN': '题目', 'en-US': 'Items' } as const;
    const indicators = { 'zh-CN': '指标与分段', 'en-US': 'Indicators and bands' } as const;
    // The scale list loaded once, switched to English in place; the editor opened afresh at each width.
    const editor = page.getByTestId('scale-editor');
    for (const lang of ['zh-CN', 'en-US'] as const) {
      await switchLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        const row = page.locator('tr', { hasText: 'SCL90' }).first();
        await row.getByRole('button', { name: /(查看|View)$/ }).click();
        await editor.getByRole('tab', { name: tab[lang] }).click();
        const rule = editor.getByTestId('screening-0');
        await expect(rule).toBeVisible({ timeout: 60_000 });
        await expect(rule.locator('input[value*="m.fanque.com.cn"]')).toHaveCount(1);
        // The condition's indicator is named in the page's language (the English page showed "TOTAL 总分").
        const indicator = rule.getByText(/^TOTAL\s/).first();
        await expect(indicator).toHaveText(lang === 'en-US' ? /^TOTAL [A-Za-z]/ : /^TOTAL 总分/);
        await rule.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `editor-screening-${lang}-${width}.png`) });
        // SCL-90's 90 items, 20 to a page (drawn at once, they kept the drawer from answering for seconds).
        await editor.getByRole('tab', { name: items[lang], exact: true }).click();
        await expect(editor.getByTestId('question-20')).toBeVisible();
        await expect(editor.getByTestId('question-21')).toHaveCount(0);
        await editor.getByTestId('question-pager').getByTitle('5', { exact: true }).click();
        await expect(editor.getByTestId('question-90')).toBeVisible();
        await expect(editor.getByTestId('question-pager')).toContainText(lang === 'en-US' ? 'Items 81–90' : '第 81–90 题');
        // The item's factor is named in the page's language (the English page showed "PSY 精神病性").
        await expect(editor.getByTestId('q90-factor')).toHaveText(lang === 'en-US' ? 'PSY Psychoticism' : 'PSY 精神病性');
        await page.screenshot({ path: path.join(SHOTS, `editor-items-${lang}-${width}.png`) });
        // Its fifteen indicator cards are drawn a few at a time, and all of them in the end.
        await editor.getByRole('tab', { name: indicators[lang], exact: true }).click();
        await expect(editor.getByTestId('ind14-items')).toBeAttached();
        await page.keyboard.press('Escape');
        await expect(editor).toBeHidden();
      }
    }
  });
});
