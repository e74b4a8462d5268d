import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { expect, test, type Browser } from '@playwright/test';
import { answerForm, apiCall, apiSignIn, consent, fillAnyArchive, pick, setLanguage, signIn } from './support';

/**
 * Group assessment (issue 14): a teacher builds a class, imports its roster (the difference is
 * shown before anything is stored), creates a task for it; five students answer on phones and
 * the task's progress counts them while the teacher watches, without a reload. Then the two
 * pages are photographed at 1024 and 1440 px in Chinese and English.
 */
const PHONE = { width: 390, height: 844 };
const SHOTS = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'task-shots');
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const run = `${Date.now() % 100000}`;
const CLASS = `E2E${run}班`;
const STUDENTS = [
  ['S01', '赵一', '男'],
  ['S02', '钱二', '女'],
  ['S03', '孙三', '男'],
  ['S04', '李四', '女'],
  ['S05', '周五', '男'],
];

/** An .xlsx of the roster template with the given rows under its header. */
async function roster(template: Buffer, rows: (string | null)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  rows.forEach((r, i) => (ws.getRow(i + 2).values = r));
  return Buffer.from(await wb.xlsx.writeBuffer());
}


/** One student on a phone: the task code with number and name, or (fallback) the personal code. */
async function answerOnPhone(browser: Browser, entry: { taskcode: string; studentno: string; realname: string; assesscode: string }) {
  const context = await browser.newContext({ viewport: PHONE, locale: 'zh-CN', isMobile: true, hasTouch: true });
  const phone = await context.newPage();
  // The task sign-in (/t): the code from the board, then number and name as on the roster.
  await phone.goto('/t');
  if (await phone.getByTestId('r-task-taskcode').isVisible({ timeout: 15_000 }).catch(() => false)) {
    await phone.getByTestId('r-task-taskcode').fill(entry.taskcode);
    await phone.getByTestId('r-task-studentno').fill(entry.studentno);
    await phone.getByTestId('r-task-realname').fill(entry.realname);
    await phone.getByTestId('r-task-start').click();
  } else {
    await phone.goto(`/a/${entry.assesscode}`);
  }
  await consent(phone);
  await fillAnyArchive(phone);
  await answerForm(phone, () => 2);
  await expect(phone.locator('h1')).toHaveText('测评已完成', { timeout: 30_000 });
  await context.close();
}

test('a teacher imports a class, gives it a task and watches five students finish on their phones', async ({ page, browser, request }) => {
  test.setTimeout(170_000);
  const staff = await apiSignIn(request, 'school');
  const plan = await apiCall(request, 'as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: `E2E 班级筛查 ${run}`, formcodes: ['PHQ9'] }, staff.token);
  expect(plan.errorCode, plan.errorMsg).toBe(0);

  await signIn(page, 'school', { path: '/task/teamManagement' });

  // A new class.
  await page.getByTestId('team-add').click();
  const teamDialog = page.getByTestId('team-dialog');
  await teamDialog.getByTestId('team-school').locator('input').fill('E2E 实验中学');
  await teamDialog.getByTestId('team-year').locator('input').fill('2026-2027');
  await teamDialog.getByTestId('team-grade').locator('input').fill('初一');
  await teamDialog.getByTestId('team-classname').fill(CLASS);
  await teamDialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(teamDialog).toBeHidden();
  const teamRow = page.locator('tr.ant-table-row', { hasText: CLASS });
  await expect(teamRow).toBeVisible();

  // The roster: a file with a bad row is refused with its reasons; a clean one shows the difference first.
  await teamRow.getByText(/^名单$/).click();
  const drawer = page.getByTestId('roster-drawer');
  await expect(drawer).toContainText('名单为空');
  await drawer.getByTestId('roster-import').click();
  const dialog = page.getByTestId('roster-dialog');
  const [templateFile] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('roster-template').click()]);
  const template = fs.readFileSync(await templateFile.path());
  const upload = async (name: string, rows: (string | null)[][]) =>
    dialog.locator('input[type=file]').setInputFiles({ name, mimeType: XLSX, buffer: await roster(template, rows) });

  await upload('bad.xlsx', [...STUDENTS, ['S05', null, '男']]);
  await expect(dialog.getByTestId('roster-problems')).toBeVisible();
  await expect(dialog.getByTestId('roster-problems')).toContainText('7');
  await expect(dialog.getByTestId('roster-commit')).toBeDisabled();
  await expect(dialog.getByTestId('roster-error-file')).toBeVisible();

  await upload('class.xlsx', STUDENTS);
  await expect(dialog.getByTestId('roster-summary')).toContainText(/新增 5 人/);
  await expect(dialog.getByTestId('roster-changes').locator('tr.ant-table-row')).toHaveCount(5);
  await dialog.getByTestId('roster-commit').click();
  await expect(dialog).toBeHidden();
  await expect(drawer.getByTestId('roster-table').locator('tr.ant-table-row')).toHaveCount(5);

  // A second file: one renamed, one leaving, one new: exactly that is shown, then applied.
  await drawer.getByTestId('roster-import').click();
  await upload('class-v2.xlsx', [...STUDENTS.slice(0, 3), ['S04', '李思', '女'], ['S06', '吴六', '女']]);
  await expect(dialog.getByTestId('roster-summary')).toContainText(/新增 1 人，变更 1 人，移出 1 人/);
  await dialog.getByTestId('roster-views').getByText(/变更/).click();
  await expect(dialog.getByTestId('roster-changes')).toContainText('李四');
  await dialog.getByTestId('roster-views').getByText(/移出/).click();
  await expect(dialog.getByTestId('roster-changes')).toContainText('周五');
  // Cancel: nothing changed; the first roster of five is the one the task takes.
  await dialog.getByRole('button', { name: /取\s*消/ }).click();
  await expect(drawer.getByTestId('roster-table')).toContainText('周五');
  await drawer.locator('.ant-drawer-close').click();
  await expect(drawer).toBeHidden();

  // The task: the plan, the class, now until next week; saving gives the five their codes.
  await page.goto('/task/administration');
  await page.getByTestId('task-add').click();
  const taskDialog = page.getByTestId('task-dialog');
  await taskDialog.getByTestId('task-name').fill(`E2E 任务 ${run}`);
  await pick(page, taskDialog.getByTestId('task-plan'), `E2E 班级筛查 ${run}`);
  await pick(page, taskDialog.getByTestId('task-teams'), CLASS);
  await page.keyboard.press('Escape');
  await taskDialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page.getByText(/已为 5 人发放测评码/)).toBeVisible();
  const taskRow = page.locator('tr.ant-table-row', { hasText: `E2E 任务 ${run}` });
  const taskcode = (await taskRow.getByTestId('task-code').textContent())!.trim();

  // Progress, live: five not started.
  await taskRow.getByText(/^进度$/).click();
  const progress = page.getByTestId('progress-drawer');
  await expect(progress.getByTestId('progress-notstarted')).toContainText('5');
  await expect(progress.getByTestId('progress-live')).toContainText('实时');
  await page.evaluate(() => ((window as unknown as { e2eMark: number }).e2eMark = 1));

  const tasks = await apiCall(request, 'as.m.assess.getTaskList', { taskname: `E2E 任务 ${run}`, page: 1, pageSize: 10 }, staff.token);
  const taskid = (tasks.data as { rows: { taskid: string }[] }).rows[0].taskid;
  const people = await apiCall(request, 'as.m.assess.getAssessTaskRoster', { taskid, page: 1, pageSize: 50 }, staff.token);
  const persons = (people.data as { rows: { studentno: string; realname: string; assesscode: string }[] }).rows;
  expect(persons).toHaveLength(5);

  // The first student finishes: the page counts one without a reload; then the other four.
  await answerOnPhone(browser, { taskcode, ...persons[0] });
  await expect(progress.getByTestId('progress-finished')).toContainText('1');
  await Promise.all(persons.slice(1).map((p) => answerOnPhone(browser, { taskcode, ...p })));
  await expect(progress.getByTestId('progress-finished')).toContainText('5');
  await expect(progress.getByTestId('progress-notstarted')).toContainText('0');
  expect(await page.evaluate(() => (window as unknown as { e2eMark?: number }).e2eMark)).toBe(1);
  await expect(progress.getByTestId('progress-teams')).toContainText('100%');
});

test('screenshots: both pages at 1024 and 1440 px, zh and en', async ({ page }) => {
  test.setTimeout(170_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await signIn(page, 'school');
  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto('/task/teamManagement');
      await expect(page.locator('tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: path.join(SHOTS, `teams-${lang}-${width}.png`) });
      await page.locator('tr.ant-table-row').first().locator('a').first().click();
      await expect(page.getByTestId('roster-table').locator('tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: path.join(SHOTS, `roster-${lang}-${width}.png`) });

      await page.goto('/task/administration');
      const row = page.locator('tr.ant-table-row').first();
      await expect(row).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: path.join(SHOTS, `tasks-${lang}-${width}.png`) });
      await row.locator('a').first().click();
      await expect(page.getByTestId('progress-teams').locator('tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
      await page.screenshot({ path: path.join(SHOTS, `progress-${lang}-${width}.png`) });
    }
  }
});
