/**
 * A maternity hospital registers a person (issue 28 items 7–9): only its own population is
 * offered, no gender is assumed, one message per field ("choose" for choices), a week of
 * pregnancy out of range is refused with its range (never turned into 45), and a name with an
 * emoji is refused with the name rule said. Screenshots at 1024 and 1440 px in both languages.
 */
import { expect, test, type Page } from '@playwright/test';
import { NAME_RULE } from '@xinli/contract';
import { apiCall, apiSignIn, setLanguage, signIn } from './support';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-persons';

const words = {
  'zh-CN': { ok: /确\s*定/, gender: '请选择性别', name: '请输入姓名', weeks: '孕周应在 0 到 45 之间', rule: NAME_RULE.zh, female: '女', stage: '孕中期（14–27周）' },
  'en-US': { ok: /OK/, gender: 'Choose Gender', name: 'Enter Name', weeks: 'Week of pregnancy must be between 0 and 45', rule: NAME_RULE.en, female: 'Female', stage: 'Mid pregnancy (weeks 14–27)' },
} as const;

const errorsOf = (page: Page) => page.locator('.ant-modal .ant-form-item-explain-error');

for (const lang of ['zh-CN', 'en-US'] as const) {
  test(`new person as the maternity hospital (${lang})`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const w = words[lang];
    const realname = lang === 'zh-CN' ? '阿依古丽·测试' : 'Zoë O’Test';
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/login');
    await setLanguage(page, lang);
    await signIn(page, 'hospital', { path: '/empower/individualAssessment' });
    await page.getByTestId('person-add').click();
    const dialog = page.locator('.ant-modal', { has: page.getByTestId('person-realname') });
    await expect(dialog.getByTestId('person-realname')).toBeVisible();

    // Only the hospital's population, chosen already as it is the only one; no custom-report app.
    const app = dialog.getByTestId('person-app');
    await expect(dialog.locator('.ant-select-content, .ant-select-selection-item').first()).toHaveText(lang === 'zh-CN' ? '孕产妇' : /Pregnant|Maternity/);
    await app.click();
    await expect(page.locator('.ant-select-dropdown:visible .ant-select-item-option')).toHaveCount(1);
    await page.keyboard.press('Escape');
    // No gender assumed.
    await expect(dialog.getByTestId('person-gender').locator('input:checked')).toHaveCount(0);

    // Save empty: one message per field, "choose" for the gender.
    await page.locator('.ant-modal-footer').getByRole('button', { name: w.ok }).click();
    await expect(errorsOf(page).filter({ hasText: w.gender })).toHaveCount(1);
    await expect(errorsOf(page).filter({ hasText: w.name })).toHaveCount(1);
    for (const item of await dialog.locator('.ant-form-item-has-error').all()) await expect(item.locator('.ant-form-item-explain-error')).toHaveCount(1);

    // An emoji in the name: refused, the rule said.
    await dialog.getByTestId('person-realname').fill('林小雨😀');
    await expect(errorsOf(page).filter({ hasText: w.rule })).toHaveCount(1);
    // 99 weeks stays 99 and is refused with the range.
    await dialog.getByTestId('person-realname').fill(realname);
    await dialog.getByTestId('person-gender').getByText(w.female, { exact: true }).click();
    await dialog.getByTestId('archive-q1').getByText(w.stage, { exact: true }).click();
    const weeks = dialog.getByTestId('archive-q3').locator('input');
    await weeks.fill('99');
    await weeks.blur();
    await expect(weeks).toHaveValue('99');
    await page.locator('.ant-modal-footer').getByRole('button', { name: w.ok }).click();
    await expect(errorsOf(page).filter({ hasText: w.weeks })).toHaveCount(1);
    await expect(dialog).toBeVisible();

    await page.screenshot({ path: `${SHOTS}/new-person-${lang}-1440.png` });
    await page.setViewportSize({ width: 1024, height: 768 });
    await dialog.getByTestId('person-realname').fill('林小雨😀');
    await expect(errorsOf(page).filter({ hasText: w.rule })).toHaveCount(1);
    await page.screenshot({ path: `${SHOTS}/new-person-${lang}-1024.png` });

    // Fixed: saved as typed, 30 weeks.
    await dialog.getByTestId('person-realname').fill(realname);
    await weeks.fill('30');
    await page.locator('.ant-modal-footer').getByRole('button', { name: w.ok }).click();
    await expect(dialog).toBeHidden();
    const staff = await apiSignIn(request, 'hospital');
    const list = await apiCall(request, 'as.m.cuser.getCUserPageList', { realname, page: 1, pageSize: 10 }, staff.token);
    const rows = (list.data as { rows: { cusercode: string; realname: string; gender: string }[] }).rows;
    expect(rows.map((r) => [r.realname, r.gender])).toEqual([[realname, '02']]);
    const one = await apiCall(request, 'as.m.assess.getCUser', { cusercode: rows[0]!.cusercode }, staff.token);
    expect((one.data as { archive: { no: number; value: unknown }[] }).archive).toContainEqual({ no: 3, value: 30 });
    // Leave the demo as it was.
    expect((await apiCall(request, 'as.m.cuser.deleteCUser', { cusercode: rows[0]!.cusercode }, staff.token)).errorCode).toBe(0);
  });
}
