import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiCall, apiSignIn, consent, ok, axe, setLanguage, signIn } from './support';

const SHOTS = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'task-pin-shots');

/**
 * A group task's sign-in on a phone (390 x 844): a student of the demo school's running task opens
 * /t/<task code>, types a wrong number (refused, nothing opened), then the right number and name,
 * and lands on the personal code's consent screen; the task's progress counts them in progress.
 * Each screen is checked with axe-core (no serious or critical WCAG 2.1 A/AA violation).
 */
const PHONE = { width: 390, height: 844 };

test('a student signs in to a running task with its code, number and name', async ({ browser, request }) => {
  const { token } = await apiSignIn(request, 'school');
  const tasks = await ok<{ rows: { taskid: string; taskcode: string; taskname: string }[] }>(
    apiCall(request, 'as.m.assess.getTaskList', { status: 'running', page: 1, pageSize: 10 }, token),
  );
  const task = tasks.rows.find((t) => t.taskname === '全校期中情绪自评')!;
  expect(task).toBeTruthy();
  const progress = () => ok<{ inprogress: number; notstarted: number }>(apiCall(request, 'as.m.assess.getAssessTaskProgress', { taskid: task.taskid }, token));
  const before = await progress();
  const waiting = await ok<{ rows: { studentno: string; realname: string }[] }>(
    apiCall(request, 'as.m.assess.getAssessTaskRosterProgress', { taskid: task.taskid, status: 'notstarted', page: 1, pageSize: 1 }, token),
  );
  const student = waiting.rows[0]!;

  const context = await browser.newContext({ viewport: PHONE, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(`/t/${task.taskcode}`);
  await expect(page.locator('h1')).toHaveText('参加团体测评');
  await expect(page.getByTestId('r-task-taskcode')).toHaveValue(task.taskcode);
  await axe(page, 'task sign-in');

  await page.getByTestId('r-task-studentno').fill('0000000');
  await page.getByTestId('r-task-realname').fill(student.realname);
  await page.getByTestId('r-task-start').click();
  await expect(page.getByRole('alert')).toContainText('学号或姓名与名单不符');
  await axe(page, 'task sign-in refused');
  expect((await progress()).inprogress).toBe(before.inprogress);

  await page.getByTestId('r-task-studentno').fill(student.studentno);
  await page.getByTestId('r-task-start').click();
  await consent(page);
  await expect(page).toHaveURL(/\/a\/[A-Z0-9]+$/);
  await axe(page, 'after consent');
  const after = await progress();
  expect(after.inprogress).toBe(before.inprogress + 1);
  expect(after.notstarted).toBe(before.notstarted - 1);
  await context.close();
});

/**
 * Issue 27: the optional PIN. Staff switch it on for the task in its persons drawer and print a
 * class's slips (each shows a freshly drawn PIN); on the phone the sign-in then asks for the PIN,
 * refuses a classmate who knows only number and name, and opens with the slip's PIN.
 */
test('with PINs on, the slip’s PIN is asked at sign-in; staff switch it on and print slips with PINs', async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const { token } = await apiSignIn(request, 'school');
  const tasks = await ok<{ rows: { taskid: string; taskcode: string; taskname: string }[] }>(
    apiCall(request, 'as.m.assess.getTaskList', { status: 'running', page: 1, pageSize: 10 }, token),
  );
  const task = tasks.rows.find((t) => t.taskname === '全校期中情绪自评')!;

  // The console: the switch and the slips, at 1024 and 1440 px in both languages.
  await signIn(page, 'school');
  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    for (const width of [1024, 1440]) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto('/task/administration');
      await page.getByTestId(`task-persons-${task.taskid}`).click();
      const drawer = page.getByTestId('task-roster-drawer');
      await expect(drawer.getByTestId('task-pin')).toBeVisible({ timeout: 60_000 });
      const on = drawer.getByTestId('task-pin-switch');
      if ((await on.getAttribute('aria-checked')) !== 'true') await on.click();
      await expect(on).toHaveAttribute('aria-checked', 'true');
      await page.screenshot({ path: path.join(SHOTS, `drawer-${lang}-${width}.png`) });
      await drawer.getByTestId('task-roster-team').click();
      await page.locator('.ant-select-item-option').first().click();
      await drawer.getByTestId('task-slips').click();
      await page.locator('.ant-modal-confirm .ant-btn-primary').click();
      await expect(page.getByTestId('slip-pin').first()).toBeVisible({ timeout: 60_000 });
      await expect(page.getByTestId('slip-pin').first()).toContainText(/[0-9]{6}/);
      await page.screenshot({ path: path.join(SHOTS, `slips-${lang}-${width}.png`) });
      await page.keyboard.press('Escape');
    }
  }

  // One student's new slip through the API (the PIN is shown only once, on the slip).
  const waiting = await ok<{ rows: { cusercode: string; studentno: string; realname: string }[] }>(
    apiCall(request, 'as.m.assess.getAssessTaskRosterProgress', { taskid: task.taskid, status: 'notstarted', page: 1, pageSize: 1 }, token),
  );
  const student = waiting.rows[0]!;
  const { rows } = await ok<{ rows: { cusercode: string; pin: string }[] }>(
    apiCall(request, 'as.m.assess.resetAssessTaskPins', { taskid: task.taskid, cusercode: student.cusercode }, token),
  );
  const pin = rows[0]!.pin;

  for (const locale of ['en-US', 'zh-CN']) {
    const context = await browser.newContext({ viewport: PHONE, locale });
    const phone = await context.newPage();
    await phone.goto(`/t/${task.taskcode}`);
    await expect(phone.getByTestId('r-task-pin')).toBeVisible();
    await phone.getByTestId('r-task-studentno').fill(student.studentno);
    await phone.getByTestId('r-task-realname').fill(student.realname);
    await phone.getByTestId('r-task-pin').fill(pin === '000000' ? '000001' : '000000');
    await phone.getByTestId('r-task-start').click();
    await expect(phone.getByRole('alert')).toContainText(locale === 'zh-CN' ? '学号、姓名或口令与名单不符' : 'number, name or PIN does not match');
    await phone.screenshot({ path: path.join(SHOTS, `phone-${locale}-390.png`), fullPage: true });
    if (locale === 'zh-CN') {
      await axe(phone, 'task sign-in with a PIN');
      await phone.getByTestId('r-task-pin').fill(pin);
      await phone.getByTestId('r-task-start').click();
      await consent(phone);
      await expect(phone).toHaveURL(/\/a\/[A-Z0-9]+$/);
    }
    await context.close();
  }
  // Back as the demo has it: other specs sign in to this task by number and name.
  await ok(apiCall(request, 'as.m.assess.updateAssessTaskPin', { taskid: task.taskid, pinrequired: 0 }, token));
});
