import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiCall, apiSignIn, setLanguage, signIn } from './support';

/**
 * Issue 31 on screen: the demo clinic's (朝阳妇产医院, bjhospital) custom report is shown on the
 * console's report page as its template version lays it out, as its print does (header, the
 * template's sections in its order and only those, its own band text, the sign-off), and a
 * standard report keeps the standard page; the group report's page puts each group mean against
 * the form's norm (nothing while the form has none). zh and en at 1024 and 1440 px, screenshots in
 * xinli-report-layout-shots/.
 */
const SHOTS = path.join(os.tmpdir(), 'xinli-report-layout-shots');
/** The demo template's band texts of the PHQ-9 and GAD-7 totals (reports/custom/demo.ts). */
const DEMO_BANDS = ['本次评估未见明显情绪困扰，请保持规律作息，产检时可再次评估。', '存在中度情绪困扰，门诊医生将在两周内电话随访，必要时转介心理科。'];

type Detail = {
  reportid: string;
  layout: { title: string; headername: string; version: number; sections: string[]; signoff: string } | null;
  indicators: { code: string; interpretation: { zh: string } | null }[];
};

async function data<T>(request: APIRequestContext, name: string, input: unknown, token: string): Promise<T> {
  const res = await apiCall(request, name, input, token);
  expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
  return res.data as T;
}

/** A demo clinic report of its template's second version whose total got the template's own band text. */
async function templatedReport(request: APIRequestContext, token: string): Promise<Detail> {
  const list = await data<{ rows: { reportid: string; appid: string }[] }>(request, 'as.m.exam.getCUserReportPageList', { appid: '000000005', page: 1, pageSize: 50 }, token);
  for (const row of list.rows.filter((r) => r.appid === '000000005')) {
    const d = await data<Detail>(request, 'as.m.exam.getCUserReport', { reportid: row.reportid }, token);
    const total = d.indicators.find((i) => i.code === 'TOTAL');
    if (d.layout?.version === 2 && DEMO_BANDS.includes(total?.interpretation?.zh ?? '')) return d;
  }
  throw new Error('no demo report of the template’s version 2 with a band text');
}

const noRawKeys = async (page: Page) => expect(page.locator('body')).not.toContainText(/echarts\.report\.|task\.groupReport\.|echarts\.norms\./);

test.describe('reports laid out by their template, and group means against the norm', () => {
  test.describe.configure({ timeout: 600_000 });

  test('a custom report on screen follows its template version as its print does', async ({ page, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const staff = (await apiSignIn(request, 'bjhospital')).token;
    const report = await templatedReport(request, staff);
    const layout = report.layout!;
    const band = report.indicators.find((i) => i.code === 'TOTAL')!.interpretation!.zh;
    // The print lays the same sections out in the same order.
    const printed = await data<{ html: string }>(request, 'as.m.exam.getReportDocument', { reportid: report.reportid }, staff);
    expect(printed.html).toContain(band);
    expect(printed.html).toContain(layout.signoff);

    await page.addInitScript(() => {
      window.print = () => undefined;
    });
    await signIn(page, 'bjhospital');
    for (const lang of ['zh-CN', 'en-US']) {
      await setLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/echarts/web?reportid=${report.reportid}`);
        await expect(page.locator('[data-layout="template"]')).toBeVisible({ timeout: 90_000 });
        await expect(page.getByTestId('report-title')).toHaveText(layout.title);
        await expect(page.getByTestId('report-headername')).toHaveText(layout.headername);
        // The template's sections, in its order, and no other.
        expect(await page.locator('[data-section]').evaluateAll((els) => els.map((e) => e.getAttribute('data-section')))).toEqual(layout.sections);
        // Its own text of the total's band, in either language (the template has one text).
        await expect(page.getByTestId('report-interpretation-TOTAL')).toHaveText(band);
        await expect(page.getByTestId('report-signoff')).toContainText(layout.signoff);
        await expect(page.getByTestId('report-signoff')).toContainText(lang === 'en-US' ? 'version 2' : '第 2 版');
        await expect(page.getByTestId('report-indicator-chart')).toHaveCount(0); // one indicator: no chart, as in print
        await expect(page.getByTestId('report-summary')).toContainText(lang === 'en-US' ? 'Summary' : '概要');
        await expect(page.getByTestId('report-print')).toBeVisible();
        await noRawKeys(page);
        await page.screenshot({ path: path.join(SHOTS, `templated-${lang}-${width}.png`), fullPage: true });
      }
    }

    // A standard report (no template) keeps the standard page.
    const school = (await apiSignIn(request, 'school')).token;
    const other = await data<{ rows: { reportid: string; appid: string }[] }>(request, 'as.m.exam.getCUserReportPageList', { page: 1, pageSize: 1 }, school);
    const plain = await data<Detail>(request, 'as.m.exam.getCUserReport', { reportid: other.rows[0]!.reportid }, school);
    expect(plain.layout).toBeNull();
    const context = await page.context().browser()!.newContext({ viewport: { width: 1440, height: 900 } });
    const standard = await context.newPage();
    await signIn(standard, 'school', { path: `/echarts/web?reportid=${plain.reportid}` });
    await expect(standard.getByTestId('report-indicators')).toBeVisible({ timeout: 90_000 });
    await expect(standard.locator('[data-layout="template"]')).toHaveCount(0);
    await expect(standard.getByTestId('report-answers')).toBeVisible();
    await context.close();
  });

  test('the group report puts each group mean against the norm, and shows nothing without one', async ({ page, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await signIn(page, 'school');
    await page.setViewportSize({ width: 1440, height: 900 });
    await setLanguage(page, 'zh-CN');
    await page.goto('/task/groupReport');
    await expect(page.getByTestId('group-distribution')).toBeVisible({ timeout: 90_000 });
    // The demo task's PHQ-A has no norm: no norm section.
    await expect(page.getByTestId('group-norms')).toHaveCount(0);

    // The super account adds a PHQ-A norm (made-up figures for the test); it is removed at the end.
    const admin = (await apiSignIn(request, 'admin')).token;
    const { normid } = await data<{ normid: string }>(
      request,
      'as.m.assess.norm.insertNorm',
      {
        formcode: 'PHQA',
        name: { zh: '测试常模', en: 'Test norm' },
        population: { zh: '测试人群', en: 'Test population' },
        samplesize: 321,
        year: 2021,
        source: '浏览器测试来源 2021',
        scales: [{ code: 'TOTAL', mean: 4, sd: 3 }],
        change: null,
        isdefault: 1,
      },
      admin,
    );
    try {
      const school = (await apiSignIn(request, 'school')).token;
      const tasks = await data<{ rows: { taskid: string }[] }>(request, 'as.m.assess.getTaskList', { page: 1, pageSize: 200 }, school);
      const group = await data<{ indicators: { formcode: string; code: string; mean: number; norm: { z: number; t: number } | null }[] }>(
        request,
        'as.m.assess.getGroupReport',
        { taskid: tasks.rows[0]!.taskid },
        school,
      );
      const total = group.indicators.find((i) => i.formcode === 'PHQA' && i.code === 'TOTAL')!;
      // z = (mean − 4) / 3 and T = 50 + 10z, as the server rounds them.
      expect(total.norm!.z).toBeCloseTo((total.mean - 4) / 3, 2);
      expect(total.norm!.t).toBeCloseTo(50 + (10 * (total.mean - 4)) / 3, 1);
      for (const lang of ['zh-CN', 'en-US']) {
        await setLanguage(page, lang);
        for (const width of [1024, 1440]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto('/task/groupReport');
          const norms = page.getByTestId('group-norms');
          await expect(norms).toBeVisible({ timeout: 90_000 });
          const row = norms.locator('tr.ant-table-row').first();
          await expect(row).toContainText(String(total.mean));
          await expect(row).toContainText('4 ± 3');
          await expect(row).toContainText(total.norm!.z.toFixed(2));
          await expect(row).toContainText(total.norm!.t.toFixed(1));
          await expect(row.locator('svg[role="img"]')).toBeVisible();
          await expect(page.getByTestId('group-norm-source')).toContainText('浏览器测试来源 2021');
          await expect(page.getByTestId('group-norm-source')).toContainText(lang === 'en-US' ? 'Test population, n = 321, 2021' : '测试人群，n = 321，2021 年');
          await expect(norms).toContainText(lang === 'en-US' ? 'Group means against the norm' : '团体均值与常模比较');
          await noRawKeys(page);
          await norms.scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(SHOTS, `group-norms-${lang}-${width}.png`) });
        }
      }
    } finally {
      await data(request, 'as.m.assess.norm.deleteNorm', { normid }, admin);
    }
  });
});
