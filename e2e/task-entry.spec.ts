import { expect, test } from '@playwright/test';
import { apiCall, apiSignIn, consent, ok, axe } from './support';

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
