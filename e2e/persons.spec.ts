import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { agreeNoticeByApi, apiCall, apiSignIn, pick, setLanguage, signIn } from './support';

/** A 1×1 PNG: the smallest consent signature the pad could send. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
/** A PHQ-9 sheet: every item the same option (1 "not at all" .. 4 "nearly every day"). */
const phq9 = (option: number) => Array.from({ length: 9 }, (_, i) => ({ no: i + 1, option }));

async function ok<T>(request: APIRequestContext, name: string, data: unknown, token?: string): Promise<T> {
  const res = await apiCall(request, name, data, token);
  expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
  return res.data as T;
}

/** A plan of the school's own (students), made through the API so the test does not lean on demo plans. */
async function schoolPlan(request: APIRequestContext, token: string, planname: string) {
  const plan = await ok<{ plancode: string }>(
    request,
    'as.m.exam.plan.insertMUserExamPlan',
    { appid: '000000002', planname, formcodes: ['PHQ9'] },
    token,
  );
  return plan.plancode;
}


test.describe('persons, assessments and archives', () => {
  test.describe.configure({ timeout: 120_000 });

  test('staff register a person and give a plan: the code is shown with its link and QR code', async ({ page, request }) => {
    const staff = await apiSignIn(request, 'school');
    const planname = `E2E 情绪筛查 ${test.info().workerIndex}-${test.info().retry}`;
    await schoolPlan(request, staff.token, planname);

    await signIn(page, 'school', { path: '/empower/youngsters' });
    await page.getByTestId('person-add').click();
    const dialog = page.locator('.ant-modal', { has: page.getByTestId('person-realname') });
    await expect(dialog).toBeVisible();
    // The student archive form (form type 02) is part of the dialog.
    await expect(dialog).toContainText('学段');
    // Saving without the required fields sends nothing and names them.
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog).toContainText('请输入姓名');
    await expect(dialog).toContainText('请选择性别');
    await dialog.getByTestId('person-realname').fill('周小测');
    await dialog.getByTestId('person-gender').getByText('女', { exact: true }).click();
    await dialog.getByTestId('person-phone').fill('13912345678');
    await dialog.getByText('初中', { exact: true }).click();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await expect(dialog).toBeHidden();

    const row = page.locator('tr', { hasText: '周小测' });
    await expect(row).toBeVisible();
    // The phone is masked in the list.
    await expect(row).toContainText('139****5678');
    await row.getByText('分配测评').click();
    const give = page.locator('.ant-modal', { hasText: '分配测评：周小测' });
    await pick(page, give, planname);
    await page.getByTestId('give-submit').click();

    const slip = page.getByTestId('code-slip');
    await expect(slip).toHaveCount(1);
    await expect(slip).toContainText('周小测');
    const code = (await slip.getByTestId('assess-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}$/);
    await expect(slip.locator('a')).toHaveAttribute('href', new RegExp(`/a/${code}$`));
    await expect(slip.getByTestId('code-qr')).toBeVisible();
    await expect(page.getByTestId('code-print')).toBeVisible();

    // The code is the person's: the archive lists it as given.
    const given = await ok<{ assesscode: string }[]>(
      request,
      'as.m.cuser.getCUserPlan',
      { cusercode: await cusercodeOf(request, staff.token, '周小测') },
      staff.token,
    );
    expect(given.map((g) => g.assesscode)).toContain(code);
  });

  test('staff find a report in the list and the person’s archive with its trend chart', async ({ page, request }) => {
    const staff = await apiSignIn(request, 'school');
    const plancode = await schoolPlan(request, staff.token, 'E2E 复测');
    const { cusercode } = await ok<{ cusercode: string }>(
      request,
      'as.m.cuser.insertCUser',
      { appid: '000000002', realname: '吴趋势', gender: '01' },
      staff.token,
    );
    // Two assessments answered through the respondent channel: a first sheet, then a worse one.
    for (const option of [1, 3]) {
      const { assesscode } = await ok<{ assesscode: string }>(
        request,
        'as.m.user.insertCUserAssessCode',
        { cusercode, plancode },
        staff.token,
      );
      const { token } = await ok<{ token: string }>(request, 'as.c.exam.start', { assesscode });
      await agreeNoticeByApi(request, token);
      await ok(request, 'as.c.exam.sign', { signature: PNG }, token);
      await ok(request, 'as.c.exam.submit', { formcode: 'PHQ9', answers: phq9(option) }, token);
    }

    await signIn(page, 'school', { path: '/empower/usersReport' });
    await page.getByPlaceholder('请输入姓名').fill('吴趋势');
    await page.locator('button[type=submit]', { hasText: /搜\s*索/ }).click();
    const rows = page.locator('tr.ant-table-row', { hasText: '吴趋势' });
    await expect(rows).toHaveCount(2);
    // The report opens on the report page with its indicators and answers.
    await rows.first().getByText('查看').click();
    await expect(page).toHaveURL(/\/echarts\/web\?reportid=/);
    const report = page.getByTestId('report-page');
    await expect(report).toContainText('PHQ');
    await expect(report.getByTestId('level-tag').first()).toBeVisible();
    await page.goBack();

    // The name leads to the archive: details, both reports, and a trend chart per indicator.
    await rows.first().getByText('吴趋势').click();
    await expect(page).toHaveURL(/\/archives\/archivesyh2\?cusercode=/);
    await expect(page.getByTestId('archive-name')).toHaveText('吴趋势');
    await expect(page.getByTestId('archive-reports').locator('tr.ant-table-row')).toHaveCount(2);
    const chart = page.getByTestId('archive-trends').locator('[data-points]').first();
    await expect(chart).toHaveAttribute('data-points', '2');
    await expect(chart.locator('canvas')).toBeVisible();
    await expect(page.getByTestId('archive-signature').locator('img')).toBeVisible();
  });
});

const SHOTS = path.join(os.tmpdir(), 'xinli-persons-shots');

test('screenshots: 1024 and 1440 px, zh and en, with the loading, empty and error states', async ({ page, request }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  // A demo person with reports over several months.
  const staff = await apiSignIn(request, 'school');
  const reports = await ok<{ rows: { cusercode: string }[] }>(
    request,
    'as.m.exam.getCUserReportPageList',
    { appid: '000000002', page: 1, pageSize: 1 },
    staff.token,
  );
  const archive = `/archives/archivesyh2?cusercode=${reports.rows[0].cusercode}`;
  await signIn(page, 'school');
  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 860 });
      for (const [name, url] of [
        ['persons', '/empower/youngsters'],
        ['archives', '/archives/archives_gl_ye'],
        ['reports', '/empower/usersReport'],
      ]) {
        await page.goto(url);
        await expect(page.locator('tr.ant-table-row').first()).toBeVisible();
        await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${width}.png`) });
      }
      await page.goto(archive);
      await expect(page.getByTestId('archive-trends').locator('canvas').first()).toBeVisible();
      await page.screenshot({ path: path.join(SHOTS, `archive-${lang}-${width}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1440, height: 860 });
  // Empty: a name nothing matches.
  await page.goto('/empower/usersReport?realname=nobody-at-all');
  await expect(page.locator('.ant-table .ant-empty')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'reports-empty.png') });
  // Error: the list answers a server error; retry is offered.
  await page.route('**/api/as.m.exam.getCUserReportPageList/**', (route) => route.fulfill({ status: 503, body: 'down' }));
  await page.goto('/empower/usersReport');
  await expect(page.getByRole('button', { name: /重\s*试|Retry/ })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'reports-error.png') });
  // Loading: the answer is held back.
  await page.unroute('**/api/as.m.exam.getCUserReportPageList/**');
  await page.route('**/api/as.m.cuser.getCUserArchive/**', async (route) => {
    await new Promise((r) => setTimeout(r, 3000));
    await route.continue();
  });
  await page.goto(archive);
  await expect(page.locator('.ant-spin-spinning').first()).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'archive-loading.png') });
});

/** An .xlsx of the roster sheet: the template's header and the given rows. */
async function roster(template: Buffer, rows: (string | number | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  rows.forEach((r, i) => (ws.getRow(i + 2).values = r));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('staff import older adults: the preview names every bad row, nothing is stored until a clean file is committed', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'eldercare', { path: '/archives/archives_gl_yl' });
  await page.getByTestId('person-import-open').click();
  const dialog = page.locator('.ant-modal', { has: page.getByTestId('import-choose') });
  const [templateFile] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('import-template').click()]);
  const template = fs.readFileSync(await templateFile.path());
  // Columns: name, gender, birth date, phone, ID number, then the archive questions (q1 required).
  const good = (name: string, id: string) => [name, '女', '1950-03-04', '13900001111', id, '与配偶同住', null, null, null, null];
  const bad = await roster(template, [
    good('导入甲', '330102195003040014'),
    [null, '女', '1950-03-04', '123', '330102195003040014', '与配偶同住'],
    good('导入乙', '33010219500304001X'),
  ]);
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'bad.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: bad });
  const problems = dialog.getByTestId('import-problems');
  await expect(problems).toBeVisible();
  // Row 3: no name, a bad phone and the ID number of row 2; row 4: a wrong check character.
  await expect(problems.locator('tr.ant-table-row', { hasText: '姓名' }).first()).toContainText('3');
  await expect(problems.locator('tr.ant-table-row').filter({ hasText: /^4/ }).first()).toBeVisible();
  await expect(dialog.getByTestId('import-commit')).toBeDisabled();
  const [errors] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('import-error-file').click()]);
  const errorBook = new ExcelJS.Workbook();
  await errorBook.xlsx.readFile(await errors.path());
  const listed = errorBook.worksheets[0].getColumn(1).values.map(Number);
  expect(listed).toEqual(expect.arrayContaining([3, 4]));

  const clean = await roster(template, [good('导入甲', '330102195003040014'), good('导入乙', '330102195003040030')]);
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'good.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: clean });
  await expect(dialog.getByTestId('import-ok')).toBeVisible();
  await dialog.getByTestId('import-commit').click();
  await expect(page.getByText('已导入 2 人')).toBeVisible();
  await page.getByPlaceholder('请输入姓名').first().fill('导入');
  await page.locator('button[type=submit]', { hasText: /搜\s*索/ }).click();
  await expect(page.locator('tr.ant-table-row', { hasText: '导入甲' })).toBeVisible();
  await expect(page.locator('tr.ant-table-row', { hasText: '导入乙' })).toBeVisible();
});

async function cusercodeOf(request: APIRequestContext, token: string, realname: string): Promise<string> {
  const list = await ok<{ rows: { cusercode: string }[] }>(
    request,
    'as.m.cuser.getCUserPageList',
    { realname, page: 1, pageSize: 10 },
    token,
  );
  expect(list.rows).toHaveLength(1);
  return list.rows[0].cusercode;
}
