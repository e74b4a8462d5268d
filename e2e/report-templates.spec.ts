import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { agreeNoticeByApi, apiCall, apiSignIn, pick, setLanguage, signIn } from './support';

/**
 * The custom report (issue 31 §4) in the browser: the demo clinic (朝阳妇产医院, bjhospital)
 * designs a template in the designer, previews it with the sample report, puts it on its
 * custom-report plan, a patient answers the plan, and the report's PDF (the server's, made by
 * Chromium) carries the template's title, header, band text and sign-off on A4 pages. Screenshots
 * of the list and the designer with its preview at 1024 and 1440 px, in Chinese and English.
 */
const SHOTS = path.join(os.tmpdir(), 'xinli-report-templates-shots');
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const TITLE = '产后门诊心理评估报告';
const BAND = '模板解释：轻度情绪困扰，建议两周后复评。';

async function ok(request: APIRequestContext, name: string, data: unknown, token: string) {
  const res = await apiCall(request, name, data, token);
  expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
  return res.data as Record<string, unknown>;
}

/** A patient of the clinic answers the plan through the respondent API; answers the PHQ-9 report id. */
async function patientReport(request: APIRequestContext, plancode: string): Promise<string> {
  const staff = (await apiSignIn(request, 'bjhospital')).token;
  const person = await ok(request, 'as.m.cuser.insertCUser', { appid: '000000005', realname: '周晓岚', gender: '02', birthdate: '1993-06-18' }, staff);
  const code = await ok(request, 'as.m.user.insertCUserAssessCode', { cusercode: person.cusercode, plancode }, staff);
  const started = (await (await request.post('/api/as.c.exam.start/1.0.0/action', { data: { assesscode: code.assesscode } })).json()) as { data: { token: string } };
  const token = started.data.token;
  await agreeNoticeByApi(request, token);
  await ok(request, 'as.c.exam.sign', { signature: PNG }, token);
  // PHQ-9 item scores 1,1,1,1,1,1,0,0,0 = 6: mild (level 1).
  const phq = [1, 1, 1, 1, 1, 1, 0, 0, 0].map((s, i) => ({ no: i + 1, option: s + 1 }));
  const report = await ok(request, 'as.c.exam.submit', { formcode: 'PHQ9', answers: phq }, token);
  await ok(request, 'as.c.exam.submit', { formcode: 'GAD7', answers: [0, 0, 0, 0, 0, 0, 0].map((s, i) => ({ no: i + 1, option: s + 1 })) }, token);
  return report.reportid as string;
}

async function openDesigner(page: Page) {
  await page.goto('/empower/reportTemplates');
  await expect(page.locator('tr.ant-table-row').first()).toBeVisible({ timeout: 90_000 });
}

test.describe('custom report templates', () => {
  test.describe.configure({ timeout: 300_000 });

  test('a template is designed, previewed, used by a plan, and the report printed by it', async ({ page, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await signIn(page, 'bjhospital');
    await openDesigner(page);
    // The demo's template is in use by the demo plan.
    await expect(page.locator('tr.ant-table-row').filter({ hasText: '心理门诊评估报告' })).toContainText('心理门诊初诊评估');

    const name = `产后门诊模板 ${test.info().retry}`;
    await page.getByTestId('template-add').click();
    const dialog = page.getByTestId('template-dialog');
    await expect(dialog.getByTestId('template-name')).toBeVisible();
    await dialog.getByTestId('template-name').fill(name);
    await dialog.getByTestId('template-title').fill(TITLE);
    await dialog.getByTestId('template-headername').fill('朝阳妇产医院 · 产后门诊');
    await pick(page, dialog.getByTestId('template-forms'), 'PHQ-9');
    await pick(page, dialog.getByTestId('template-forms'), 'GAD-7');
    // Closes the list, which opens upwards over the fields above it in a short window.
    await dialog.locator('.ant-modal-title').click();
    // Answers in, comments out; the sign-off moved to the top and back down again.
    await dialog.getByTestId('template-section-answers').click();
    await dialog.getByTestId('template-section-comments').click();
    await dialog.getByTestId('template-band-add').click();
    await pick(page, dialog.getByTestId('template-band-indicator'), 'TOTAL');
    await pick(page, dialog.getByTestId('template-band-level'), '轻度');
    await dialog.getByTestId('template-band-text').fill(BAND);
    await dialog.getByTestId('template-signoff').fill('产后门诊医生签名：＿＿＿＿');

    // The live preview: the server renders the body against the sample report.
    await dialog.getByTestId('template-preview-refresh').click();
    const frame = dialog.getByTestId('template-preview');
    await expect(frame).toHaveAttribute('srcdoc', new RegExp(TITLE));
    const sample = (await frame.getAttribute('srcdoc'))!;
    expect(sample).toContain('示例受测者');
    expect(sample).toContain('朝阳妇产医院 · 产后门诊');
    expect(sample).toContain('作答明细');
    expect(sample).not.toContain('工作人员意见');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog.getByTestId('template-name')).toBeHidden();
    const row = page.locator('tr.ant-table-row').filter({ hasText: name });
    await expect(row).toContainText('v1');

    // The clinic's custom-report plan uses the new template.
    await row.getByText('用于方案').click();
    const planDialog = page.getByTestId('template-plan-dialog');
    await pick(page, planDialog.getByTestId('template-plan-select'), '心理门诊初诊评估');
    await planDialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(planDialog.getByTestId('template-plan-select')).toBeHidden();
    await expect(row).toContainText('心理门诊初诊评估');

    // A patient answers the plan; the report's PDF follows the template.
    const staff = (await apiSignIn(request, 'bjhospital')).token;
    const plans = await ok(request, 'as.m.exam.plan.getMUserExamPlanPage', { appid: '000000005', page: 1, pageSize: 20 }, staff);
    const plancode = (plans.rows as { plancode: string; planname: string }[]).find((p) => p.planname === '心理门诊初诊评估')!.plancode;
    const reportid = await patientReport(request, plancode);
    const pdf = await request.post('/api/as.m.exam.exportReportPdf/1.0.0/action', { data: { reportid }, headers: { token: staff } });
    expect(pdf.headers()['content-type']).toContain('application/pdf');
    const pdfFile = path.join(SHOTS, 'custom-report.pdf');
    fs.writeFileSync(pdfFile, await pdf.body());
    const info = execFileSync('pdfinfo', [pdfFile]).toString();
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
    expect(pages).toBeGreaterThanOrEqual(2);
    const [w, h] = (/Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info) ?? []).slice(1).map(Number);
    expect(Math.abs(w! - 595.28)).toBeLessThan(2);
    expect(Math.abs(h! - 841.89)).toBeLessThan(2);
    const text = execFileSync('pdftotext', ['-layout', pdfFile, '-']).toString();
    for (const expected of [TITLE, '朝阳妇产医院 · 产后门诊', BAND, '产后门诊医生签名', '周晓岚', '作答明细'])
      expect(text.replace(/\s+/g, '')).toContain(expected.replace(/\s+/g, ''));
    expect(text).not.toContain('工作人员意见');
    execFileSync('pdftoppm', ['-r', '60', '-png', pdfFile, path.join(SHOTS, 'custom-report-page')]);
    expect(fs.readdirSync(SHOTS).filter((f) => f.startsWith('custom-report-page')).length).toBe(pages);

    // The template was saved again: the printed report keeps version 1.
    await row.locator('[data-testid^="template-edit-"]').click();
    await expect(dialog.getByTestId('template-title')).toHaveValue(TITLE);
    await dialog.getByTestId('template-title').fill(`${TITLE}（修订）`);
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(row).toContainText('v2');
    const again = await ok(request, 'as.m.exam.getReportDocument', { reportid }, staff);
    expect(again.html).toContain(TITLE);
    expect(again.html).not.toContain(`${TITLE}（修订）`);
  });

  test('screenshots: the list and the designer with its preview at 1024 and 1440 px, zh and en', async ({ page }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await signIn(page, 'bjhospital');
    for (const lang of ['zh-CN', 'en-US'] as const) {
      await setLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await openDesigner(page);
        await page.screenshot({ path: path.join(SHOTS, `list-${lang}-${width}.png`) });
        const row = page.locator('tr.ant-table-row').filter({ hasText: '心理门诊评估报告' });
        await row.locator('[data-testid^="template-edit-"]').click();
        const dialog = page.getByTestId('template-dialog');
        await expect(dialog.getByTestId('template-name')).toHaveValue('心理门诊评估报告');
        await dialog.getByTestId('template-preview-refresh').click();
        await expect(dialog.getByTestId('template-preview')).toHaveAttribute('srcdoc', /<html/);
        await page.screenshot({ path: path.join(SHOTS, `designer-${lang}-${width}.png`) });
        await expect(page.locator('body')).not.toContainText('empower.template.');
        await dialog.getByRole('button', { name: /取\s*消|Cancel/ }).click();
        await expect(dialog.getByTestId('template-name')).toBeHidden();
      }
    }
  });
});
