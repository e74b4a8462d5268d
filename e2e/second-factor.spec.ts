import { expect, test, type Page } from '@playwright/test';
import { TOTP } from 'otpauth';
import { apiCall, apiSignIn, fillSignIn, setLanguage, signIn } from './support';

/**
 * Issue 30 §1 in the browser: enrolment through the account menu, then a sign-in in two steps;
 * and the demo account with a second factor (its secret is the one the start-up line prints).
 * Codes are computed here from the secret, as an authenticator app would.
 */
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-second-factor';
/** apps/server/src/domains/auth/demo.ts: printed at start-up with the demo sign-ins. */
const DEMO_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

const totp = (secret: string) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 });

const stepNow = () => Math.floor(Date.now() / 30_000);

/**
 * A code and its time step. A code is accepted once, for a step later than the last accepted: after
 * `after`, it is the next step's code while the clock is still in `after` (the server takes a code
 * of the step either side of its own, as from a phone whose clock runs ahead), rather than waiting
 * up to 30 s for the step to pass.
 */
function freshCode(secret: string, after?: number): { code: string; step: number } {
  const step = after === undefined ? stepNow() : Math.max(after + 1, stepNow());
  return { code: totp(secret).generate({ timestamp: step * 30_000 }), step };
}

async function shoot(page: Page, name: string) {
  for (const width of [1024, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
}

test('enrol through the account menu, sign out, sign in with the password and a code; the staff list marks who has one', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  try {
    await signIn(page, 'doctor');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-second-factor').click();
    const dialog = page.getByTestId('second-factor');
    await expect(dialog).toContainText('未开启');
    await dialog.getByTestId('second-factor-set-up').click();
    const uri = await dialog.getByTestId('enrol-qr').getAttribute('data-uri');
    const secret = new URL(uri!).searchParams.get('secret')!;
    expect(uri).toMatch(/^otpauth:\/\/totp\/Xinli:doctor\?/);
    await shoot(page, 'enrol-zh');
    // A wrong first code is refused and nothing is turned on.
    await dialog.getByTestId('second-factor-code').fill(String((Number(totp(secret).generate()) + 1) % 1_000_000).padStart(6, '0'));
    await dialog.getByTestId('second-factor-turn-on').click();
    await expect(page.locator('.ant-message')).toContainText('验证码不正确');
    const first = freshCode(secret);
    await dialog.getByTestId('second-factor-code').fill(first.code);
    await dialog.getByTestId('second-factor-turn-on').click();
    await expect(dialog.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
    await shoot(page, 'recovery-codes-zh');
    await dialog.getByTestId('second-factor-done').click();

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await expect(page).toHaveURL(/\/login/);

    // The password alone does not sign in: it asks for the code.
    await fillSignIn(page, 'doctor');
    await expect(page.getByTestId('login-second-step')).toBeVisible();
    await expect(page.getByText('请输入身份验证器应用中显示的6位验证码')).toBeVisible();
    await shoot(page, 'code-step-zh');
    await page.getByTestId('login-code').fill('000000');
    await page.getByTestId('login-verify').click();
    await expect(page.getByTestId('login-error')).toContainText('验证码不正确');
    await page.getByTestId('login-code').fill(freshCode(secret, first.step).code);
    await page.getByTestId('login-verify').click();
    await expect(page.getByTestId('main-layout')).toBeVisible();

    // The hospital's staff list marks the doctor as signing in with a second factor, and no one else.
    const staff = await browser.newContext();
    const hospitalPage = await staff.newPage();
    await signIn(hospitalPage, 'hospital');
    for (const lang of ['zh-CN', 'en-US']) {
      await setLanguage(hospitalPage, lang);
      await hospitalPage.goto('/organization/user');
      await expect(hospitalPage.getByTestId('user-second-factor-doctor')).toHaveText(lang === 'zh-CN' ? '双重验证' : '2-step');
      await expect(hospitalPage.locator('[data-testid^="user-second-factor-"]')).toHaveCount(1);
      await shoot(hospitalPage, `staff-list-${lang}`);
    }
    await staff.close();
  } finally {
    // The hospital resets its doctor's second factor: later tests sign in as the doctor with a password.
    const hospital = await apiSignIn(request, 'hospital');
    expect((await apiCall(request, 'as.m.system.user.resetSecondFactor', { userid: 'U0101' }, hospital.token)).errorCode).toBe(0);
  }
});

test('the demo account with a second factor: code step in English, a recovery code offered, the printed secret signs in', async ({
  page,
}) => {
  await page.goto('/login');
  await setLanguage(page, 'en-US');
  await page.goto('/login');
  await fillSignIn(page, 'cdcare');
  await expect(page.getByText('Enter the 6-digit code your authenticator app shows')).toBeVisible();
  await shoot(page, 'code-step-en');
  await page.getByTestId('login-use-recovery').click();
  await expect(page.getByTestId('login-recovery')).toBeVisible();
  await expect(page.getByText('Enter one of your unused recovery codes; each works once')).toBeVisible();
  await shoot(page, 'recovery-step-en');
  await page.getByTestId('login-use-recovery').click();
  await page.getByTestId('login-code').fill(freshCode(DEMO_SECRET).code);
  await page.getByTestId('login-verify').click();
  await expect(page.getByTestId('main-layout')).toBeVisible();
  // An elderly-care home chooses its app first (SPEC §6).
  await page.getByTestId('app-dialog').getByTestId('app-start').click();
  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-second-factor').click();
  await expect(page.getByTestId('second-factor')).toContainText('On');
  await expect(page.getByTestId('second-factor-policy')).toBeVisible();
  await shoot(page, 'menu-en');
});

test('a policy requires a second factor: the sign-in page enrols the staff user (QR code, first code, recovery codes), then the console', async ({
  page,
  request,
}) => {
  const school = await apiSignIn(request, 'school');
  expect((await apiCall(request, 'as.m.secondFactor.setPolicy', { required: true }, school.token)).errorCode).toBe(0);
  try {
    await page.goto('/login');
    await fillSignIn(page, 'teacher');
    await expect(page.getByText('管理员要求您登录时使用双重验证')).toBeVisible();
    const uri = await page.getByTestId('enrol-qr').getAttribute('data-uri');
    const secret = new URL(uri!).searchParams.get('secret')!;
    await expect(page.getByTestId('enrol-secret')).toContainText(secret.slice(0, 4));
    await shoot(page, 'login-enrol-zh');
    await page.getByTestId('login-code').fill(freshCode(secret).code);
    await page.getByTestId('login-verify').click();
    await expect(page.getByTestId('recovery-codes').locator('li')).toHaveCount(10);
    await shoot(page, 'login-recovery-codes-zh');
    await page.getByTestId('login-continue').click();
    await expect(page.getByTestId('main-layout')).toBeVisible();
    // Required: the account menu shows it cannot be turned off.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-second-factor').click();
    await expect(page.getByTestId('second-factor')).toContainText('管理员要求');
    await expect(page.getByTestId('second-factor-turn-off')).toBeDisabled();
    await shoot(page, 'menu-required-zh');
  } finally {
    // Later tests sign in as the teacher with a password only.
    expect((await apiCall(request, 'as.m.secondFactor.setPolicy', { required: false }, school.token)).errorCode).toBe(0);
    expect((await apiCall(request, 'as.m.system.user.resetSecondFactor', { userid: 'U0001' }, school.token)).errorCode).toBe(0);
  }
});

test('the account list marks the demo account that signs in with a second factor', async ({ page }) => {
  await signIn(page, 'admin');
  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    await page.goto('/Service/terminal?username=c');
    await expect(page.getByTestId('account-second-factor-cdcare')).toHaveText(lang === 'zh-CN' ? '双重验证' : '2-step');
    await expect(page.locator('.ant-table-row', { hasText: 'eldercare' }).first()).toBeVisible();
    await expect(page.locator('[data-testid^="account-second-factor-"]')).toHaveCount(1);
    await shoot(page, `account-list-${lang}`);
  }
  await setLanguage(page, 'zh-CN');
  // Filtered by it, from the search form, and kept in the address.
  await page.goto('/Service/terminal');
  await page.getByLabel('双重验证').click();
  await page.locator('.ant-select-item-option', { hasText: '已开启' }).click();
  await page
    .getByTestId('list-search')
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  await expect(page).toHaveURL(/secondfactor=1/);
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await expect(page.getByTestId('account-second-factor-cdcare')).toBeVisible();
  await shoot(page, 'account-filter-zh');
  await page.goto('/Service/terminal?secondfactor=0');
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await expect(page.locator('[data-testid^="account-second-factor-"]')).toHaveCount(0);
  await expect(page.getByLabel('双重验证').locator('xpath=ancestor::div[contains(@class,"ant-select")][1]')).toContainText('未开启');
});
