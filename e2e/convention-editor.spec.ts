import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiCall, apiSignIn, expectControlsBesideLabels, pick, setLanguage, signIn } from './support';

/**
 * Issue 31 §1 "every rule is data, editable in the scale editor": a custom scale (a copy of PHQ-9)
 * gets a second scoring convention in the editor, the institution chooses it in the scale library,
 * and a report scored under it prints the convention's name and its band. Removing the chosen
 * convention is refused with a message. zh and en at 1024 and 1440 px.
 */
const SHOTS = path.join(os.tmpdir(), 'xinli-convention-editor-shots');

type Api = (name: string, data: unknown, token?: string) => Promise<Record<string, any>>;
const caller =
  (request: APIRequestContext): Api =>
  async (name, data, token) => {
    const res = await apiCall(request, name, data, token);
    expect(res.errorCode, `${name}: ${res.errorMsg}`).toBe(0);
    return res.data as Record<string, any>;
  };

/** The school's copy of PHQ-9 under a unique name, offered to the student app. */
async function ownPhq9(request: APIRequestContext, name: string): Promise<string> {
  const call = caller(request);
  const staff = (await apiSignIn(request, 'school')).token;
  const copy = (await call('as.m.assess.forms.copyForm', { formcode: 'PHQ9', formname: name }, staff)).formcode as string;
  const got = await call('as.m.assess.forms.getForm', { formcode: copy }, staff);
  const { formcode: _c, version: _v, ...body } = got.definition;
  await call('as.m.assess.forms.updateForm', { formcode: copy, revision: got.revision, definition: { ...body, appids: ['000000002'] } }, staff);
  return copy;
}

/** A student answers: items 1-8 "several days" (1 each), item 9 "not at all": total 8. */
async function submitTotal8(request: APIRequestContext, formcode: string, tag: string): Promise<string> {
  const call = caller(request);
  const staff = (await apiSignIn(request, 'school')).token;
  const person = await call('as.m.cuser.insertCUser', { appid: '000000002', realname: `约定${tag}`, gender: '02' }, staff);
  const plan = await call('as.m.exam.plan.insertMUserExamPlan', { appid: '000000002', planname: `约定演示${tag}`, formcodes: [formcode] }, staff);
  const code = await call('as.m.user.insertCUserAssessCode', { cusercode: person.cusercode, plancode: plan.plancode }, staff);
  const token = (await call('as.c.exam.start', { assesscode: code.assesscode })).token as string;
  const privacy = (await call('as.c.exam.getSession', {}, token)).privacy;
  if (!privacy.agreed) await call('as.c.exam.agreeNotice', { version: privacy.version }, token);
  const answers = Array.from({ length: 10 }, (_, i) => ({ no: i + 1, option: i < 8 ? 2 : 1 }));
  return (await call('as.c.exam.submit', { formcode, answers }, token)).reportid as string;
}

/** Opens the editor of an own scale from its row (found by its code: the name shows in the page's language). */
async function openEditor(page: Page, formcode: string) {
  await page.goto('/evaluating/evaluationScale');
  await page.locator('tr', { hasText: formcode }).first().getByRole('button', { name: /^(修改|Edit)$/ }).click();
  const editor = page.getByTestId('scale-editor');
  await editor.getByRole('tab', { name: /^(计分约定|Scoring conventions)$/ }).click();
  await expect(editor.getByTestId('conventions-section')).toBeVisible({ timeout: 60_000 });
  return editor;
}

test.describe('scoring conventions written in the scale editor', () => {
  test.describe.configure({ timeout: 400_000 });

  test('a second convention is added, chosen by the institution and printed on a report scored under it', async ({ page, request }) => {
    fs.mkdirSync(SHOTS, { recursive: true });
    const tag = String(Date.now() % 1_000_000); // wall-clock: unique names on a shared server
    const name = `约定PHQ${tag}`;
    const formcode = await ownPhq9(request, name);
    await signIn(page, 'school');
    await setLanguage(page, 'zh-CN');
    await page.setViewportSize({ width: 1440, height: 900 });

    // The editor: a default convention (the indicators' own bands) and a screening cut-off of 8.
    let editor = await openEditor(page, formcode);
    await editor.getByTestId('add-convention').click();
    await editor.getByTestId('add-convention').click();
    await editor.getByTestId('conv0-name').fill('标准切分');
    await editor.getByTestId('conv0-name-en').fill('Standard cut-offs');
    await editor.getByTestId('conv0-source').fill('Kroenke 2001');
    await editor.getByTestId('conv1-code').fill('cut8');
    await editor.getByTestId('conv1-name').fill('筛查切分8分');
    await editor.getByTestId('conv1-name-en').fill('Screening cut-off 8');
    await editor.getByTestId('conv1-source').fill('Manea 2012');
    await editor.getByTestId('conv1-add-indicator').click();
    // PHQ-9's own bands 0-4 / 5-9 / ...: moved to 0-7 / 8-9, the second named "screen positive".
    await editor.getByTestId('conv1-0-band0-max').fill('7');
    await editor.getByTestId('conv1-0-band1-min').fill('8');
    await editor.getByTestId('conv1-0-band1-label').fill('筛查阳性');
    await editor.getByTestId('conv1-0-band1-label-en').fill('Screen positive');
    await editor.getByTestId('scale-save').click();
    await expect(page.getByText('保存成功').first()).toBeVisible({ timeout: 60_000 });
    await expect(editor.getByTestId('scale-save-error')).toHaveCount(0);
    await editor.getByTestId('convention-1').screenshot({ path: path.join(SHOTS, 'editor-saved-zh-1440.png') });
    await editor.getByTestId('scale-close').click();

    // The institution chooses it in the scale library.
    await page.getByTestId('scale-conventions').click();
    const dialog = page.getByTestId('conventions-dialog');
    await pick(page, dialog.getByTestId(`convention-${formcode}`), '筛查切分8分');
    await expect(dialog).toContainText('Manea 2012');
    await dialog.getByRole('button', { name: /^确\s*定$/ }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });

    // Removing the chosen convention is refused, with the reason, and nothing is saved.
    editor = await openEditor(page, formcode);
    await editor.getByTestId('conv1-remove').click();
    await page.getByRole('tooltip').getByRole('button', { name: /^确\s*定$/ }).click();
    await editor.getByTestId('scale-save').click();
    await expect(editor.getByTestId('scale-save-error')).toContainText('计分约定“筛查切分8分”（cut8）正被', { timeout: 60_000 });
    await editor.getByTestId('scale-save-error').screenshot({ path: path.join(SHOTS, 'editor-refused-zh-1440.png') });
    await editor.getByTestId('scale-close').click();
    await page.getByTestId('scale-discard-ok').click();

    // A report scored under it: total 8 is "screen positive" (the default's bands call it mild).
    const reportid = await submitTotal8(request, formcode, tag);
    const words = {
      'zh-CN': { tab: '计分约定', line: '计分约定：筛查切分8分', band: '筛查阳性' },
      'en-US': { tab: 'Scoring conventions', line: 'Scoring convention: Screening cut-off 8', band: 'Screen positive' },
    } as const;
    for (const lang of ['zh-CN', 'en-US'] as const) {
      await setLanguage(page, lang);
      for (const width of [1024, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/echarts/web?reportid=${reportid}`);
        const line = page.getByTestId('report-convention');
        await expect(line).toContainText(words[lang].line, { timeout: 60_000 });
        await expect(line).toContainText('Manea 2012');
        await expect(page.getByTestId('report-indicators')).toContainText(words[lang].band);
        await page.getByTestId('report-indicators').screenshot({ path: path.join(SHOTS, `report-${lang}-${width}.png`) });

        const ed = await openEditor(page, formcode);
        await expect(ed.getByTestId('convention-1')).toContainText('cut8');
        await page.screenshot({ path: path.join(SHOTS, `editor-${lang}-${width}.png`) });
        await ed.getByTestId('scale-close').click();
      }
      // The library's dialog: each choice beside its scale's name (the English options are long).
      await page.getByTestId('scale-conventions').click();
      await expect(dialog.getByTestId(`convention-${formcode}`)).toBeVisible();
      await expectControlsBesideLabels(dialog);
      await page.screenshot({ path: path.join(SHOTS, `conventions-${lang}-1440.png`) });
      await dialog.getByRole('button', { name: /^取\s*消$|^Cancel$/ }).click();
    }
  });
});
