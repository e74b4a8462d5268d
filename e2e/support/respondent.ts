/**
 * What a respondent does on the phone page (/a/<code>), for specs that need a finished
 * assessment: consent with a signature, any app's archive form, and answering a questionnaire.
 * e2e/respondent.spec.ts uses the same steps and checks each screen as it goes.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Draws a signature on the consent pad. */
export async function drawSignature(page: Page) {
  // In view first: the mouse draws at screen coordinates, and the guardian's pad sits below the fold.
  await page.getByTestId('r-signature').scrollIntoViewIfNeeded();
  const box = (await page.getByTestId('r-signature').boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + box.height * 0.6);
  await page.mouse.down();
  // A few points make a stroke: each move waits for the page to draw it (about 65 ms here), and
  // the 25 moves this drew before took 1.7 s a signature.
  for (let i = 1; i <= 4; i++) await page.mouse.move(box.x + 30 + i * 60, box.y + box.height * (0.6 - 0.3 * Math.sin(i * 1.5)));
  await page.mouse.up();
}

const PRIVACY_STEP = /个人信息处理告知|How your personal information is used|需要监护人同意|A guardian’s consent is needed/;

/**
 * The separate consent to process sensitive personal information (issue 30 §4): agrees to the
 * institution's notice, or, for a respondent under 14, consents as the guardian (name, relation,
 * signature).
 */
export async function agreeNotice(page: Page) {
  const title = page.locator('h1');
  await expect(title).toHaveText(PRIVACY_STEP, { timeout: 60_000 });
  if (await page.getByTestId('r-guardian-submit').count()) {
    await page.getByTestId('r-guardian-name').fill('林家长');
    await page.getByTestId('r-relation-mother').check();
    await page.getByTestId('r-notice-agree').check();
    await drawSignature(page);
    await page.getByTestId('r-guardian-submit').click();
  } else {
    await page.getByTestId('r-notice-agree').check();
    await page.getByTestId('r-notice-submit').click();
  }
  await expect(title).not.toHaveText(PRIVACY_STEP, { timeout: 60_000 });
}

/** Agrees to the notice (unless the person already did, as the demo's pupils have), then to the consent, and signs it. */
export async function consent(page: Page) {
  const title = page.locator('h1');
  await expect(title).toHaveText(new RegExp(`${PRIVACY_STEP.source}|知情同意书`), { timeout: 60_000 });
  if (PRIVACY_STEP.test((await title.textContent()) ?? '')) await agreeNotice(page);
  await expect(title).toHaveText('知情同意书', { timeout: 60_000 });
  await page.getByTestId('r-agree').check();
  await drawSignature(page);
  await page.getByTestId('r-sign').click();
  await expect(title).not.toHaveText('知情同意书', { timeout: 60_000 });
}

/** Answers whatever the archive form asks on the current screen (any input type 0-8). */
export async function fillArchiveQuestion(page: Page) {
  const main = page.locator('main');
  if (await main.getByTestId('r-option-1').count()) return main.getByTestId('r-option-1').check();
  if (await main.getByTestId('r-region-0').count()) {
    await main.getByTestId('r-region-0').selectOption({ label: '浙江省' });
    await main.getByTestId('r-region-1').selectOption({ label: '杭州市' });
    return main.getByTestId('r-region-2').selectOption({ label: '滨江区' });
  }
  if (await main.getByTestId('r-fill-from').count()) {
    await main.getByTestId('r-fill-from').fill('08:00');
    return main.getByTestId('r-fill-to').fill('12:00');
  }
  if (await main.getByTestId('r-plus').count()) return main.getByTestId('r-plus').click();
  const input = main.getByTestId('r-fill');
  const type = await input.getAttribute('type');
  const mode = await input.getAttribute('inputmode');
  const value =
    type === 'date'
      ? '2026-03-15'
      : type === 'time'
        ? '06:30'
        : type === 'datetime-local'
          ? '2026-04-05T09:00'
          : mode === 'numeric'
            ? '30'
            : mode === 'decimal'
              ? '1.62'
              : '教师';
  await input.fill(value);
}

/** Answers the archive form, whatever its length, until the first questionnaire shows (zh). */
export async function fillAnyArchive(page: Page) {
  const progress = page.getByTestId('r-progress');
  await expect(page.locator('h1')).toHaveText('基本资料');
  while ((await page.locator('h1').textContent()) === '基本资料') {
    const before = await progress.textContent();
    await fillArchiveQuestion(page);
    await page.getByTestId('r-next').click();
    const moved = async () => (await progress.textContent()) !== before;
    await expect.poll(async () => (await moved()) || (await page.getByTestId('r-error').isVisible())).toBe(true);
    if (!(await moved())) {
      // A number outside this form's range ("1 – 15" under the question): its lower bound.
      const min = ((await page.locator('main').textContent()) ?? '').match(/(\d+(?:\.\d+)?)\s*–\s*\d/)?.[1];
      expect(min, 'a refused answer that is not a number out of range').toBeDefined();
      await page.getByTestId('r-fill').fill(min!);
      await page.getByTestId('r-next').click();
      await expect(progress).not.toHaveText(before ?? '');
    }
  }
}

/** Answers the questionnaire on screen with `choose(no)` (an option position) and submits it (zh). */
export async function answerForm(page: Page, choose: (no: number) => number) {
  const progress = page.getByTestId('r-progress');
  await expect(progress).toContainText('第 1 题');
  const total = Number((await progress.textContent())!.match(/共 (\d+) 题\s*$/)![1]);
  for (let no = 1; no <= total; no++) {
    await expect(progress).toContainText(`第 ${no} 题，共 ${total} 题`);
    await page.getByTestId(`r-option-${choose(no)}`).check();
    await page.getByTestId('r-next').click();
  }
  await expect(page.getByTestId('r-submit')).toBeVisible();
  await page.getByTestId('r-submit').click();
}

/** The notice step through the API (a respondent token of an adult): agrees to the current notice version. */
export async function agreeNoticeByApi(request: APIRequestContext, token: string) {
  const session = await (await request.post('/api/as.c.exam.getSession/1.0.0/action', { data: {}, headers: { token } })).json();
  const res = await request.post('/api/as.c.exam.agreeNotice/1.0.0/action', { data: { version: session.data.privacy.version }, headers: { token } });
  expect((await res.json()).errorCode).toBe(0);
}
