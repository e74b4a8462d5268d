import { expect, test, type Page } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { drawPng } from '../apps/server/src/kit/upload/png';
import { apiCall, apiSignIn, axe, setLanguage, shootInBothLanguages, shootWidths, signIn } from './support';

/**
 * Operations content end to end. Staff of the school write an article with a cover and a picture
 * in its body (both uploaded to the file store through the browser), preview and publish it; a
 * person opens the school's QR link on a phone (390 px), reads the article list and the article
 * with its picture loaded (axe-core: no serious WCAG 2.1 AA violation). The file page lists the
 * two pictures as used. Goods that grant a course: the course is locked on the phone until bought
 * there, then its (generated audio) lessons play; staff see the grant and refund part. Shots (console at 1024 and 1440 px, zh and en; respondent at 390 px) go to
 * operations-shots/.
 */
const PHONE = { width: 390, height: 844 };
const shots = path.join(os.tmpdir(), `xinli-e2e-results-${process.env.E2E_PORT ?? 4173}`, 'operations-shots');

function picture(name: string, colour: [number, number, number]): string {
  const file = path.join(shots, name);
  fs.writeFileSync(
    file,
    drawPng(240, 140, (x, y) =>
      Math.hypot(x - 170, y - 50) < 28 ? [255, 244, 200] : [Math.round(colour[0] * (1 - y / 280)), colour[1], colour[2]],
    ),
  );
  return file;
}

/** A console page in both languages at 1024 and 1440 px (loaded once, switched in place, resized). */
const consoleShots = (page: Page, url: string, name: string, ready: () => Promise<void>) =>
  shootInBothLanguages(page, { url, dir: shots, name, ready, fullPage: false });

test('an article with pictures is written, published and read on the respondent page', async ({ page, request }) => {
  test.setTimeout(240_000);
  fs.mkdirSync(shots, { recursive: true });
  const title = '课间放松：三分钟呼吸练习';

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'school', { path: '/operations/dashboards' });
  await page.getByTestId('article-add').click();
  const dialog = page.getByTestId('article-dialog');
  await dialog.getByTestId('article-title').fill(title);
  await dialog.locator('textarea').first().fill('闭上眼睛，跟着节奏呼吸。');
  const [coverInput, imageInput] = [dialog.locator('input[type=file]').nth(0), dialog.locator('input[type=file]').nth(1)];
  await coverInput.setInputFiles(picture('cover.png', [67, 167, 119]));
  await expect(dialog.locator('.article-cover-input img')).toBeVisible();
  const body = dialog.locator('.article-editor-body');
  await body.click();
  await page.keyboard.type('先找一个舒服的姿势。');
  await page.keyboard.press('Enter');
  await imageInput.setInputFiles(picture('body.png', [40, 90, 160]));
  await expect(body.locator('img')).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'console-editor-zh-CN-1440.png') });
  await dialog.getByRole('button', { name: /确\s*定|保\s*存/ }).click();
  await expect(dialog).toBeHidden();

  const row = page.locator('tr.ant-table-row', { hasText: title });
  await expect(row).toContainText('未发布');
  await row.getByRole('button', { name: '预览' }).click();
  const preview = page.getByTestId('article-preview');
  await expect(preview.locator('.article-body img')).toBeVisible();
  expect(await preview.locator('.article-body img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
  await page.screenshot({ path: path.join(shots, 'console-preview-zh-CN-1440.png') });
  await page.keyboard.press('Escape');
  await row.getByRole('button', { name: '发布' }).click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(row).toContainText('已发布');

  // The file page: both pictures, each used once; deleting one is not offered.
  await page.goto('/operations/fileUpload');
  const fileRows = page.locator('tr.ant-table-row', { hasText: /cover\.png|body\.png/ });
  await expect(fileRows).toHaveCount(2);
  for (const r of await fileRows.all()) await expect(r.locator('td').nth(4)).toHaveText('1');

  await consoleShots(page, '/operations/dashboards', 'console-articles', () =>
    expect(page.locator('tr.ant-table-row', { hasText: title })).toBeVisible(),
  );
  await consoleShots(page, '/operations/fileUpload', 'console-files', () => expect(page.locator('tr.ant-table-row').first()).toBeVisible());

  // A person on a phone, through the school's QR link.
  const provider = await apiSignIn(request, 'provider');
  const made = await apiCall(
    request,
    'as.m.user.createMUserClient',
    { musercode: 'I0001', title: '滨江一中心理中心', appids: ['000000002'], showresult: 1, hotline: '0571-86001234' },
    provider.token,
  );
  expect(made.errorCode, made.errorMsg).toBe(0);
  const entry = new URL((made.data as { qrcodeurl: string }).qrcodeurl).pathname;
  await page.setViewportSize(PHONE);
  for (const lang of ['zh', 'en'] as const) {
    await page.goto(entry);
    if (lang === 'en' && (await page.getByTestId('r-lang').textContent())?.includes('English')) await page.getByTestId('r-lang').click();
    await page.getByTestId('r-articles-link').click();
    const item = page.getByTestId('r-articles').locator('a', { hasText: title });
    await expect(item).toBeVisible();
    await axe(page, `articles-${lang}`);
    await page.screenshot({ path: path.join(shots, `respondent-${lang}-articles.png`), fullPage: true });
    await item.click();
    const article = page.getByTestId('r-article');
    await expect(page.locator('h1')).toHaveText(title);
    await expect(article.locator('.r-article-body img')).toBeVisible();
    expect(await article.locator('.r-article-body img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
    await axe(page, `article-${lang}`);
    await page.screenshot({ path: path.join(shots, `respondent-${lang}-article.png`), fullPage: true });
  }
});

test('a person buys goods that grant a course: the course unlocks on their phone; staff see the grant and refund part of it', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  fs.mkdirSync(shots, { recursive: true });
  const name = '考前冲刺减压营';
  const course = '正念入门（4 课时）'; // a demo course with generated audio lessons, sold by the demo goods

  // Staff create the goods, granting the demo course, and put them on sale.
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'school', { path: '/operations/goodsManagement' });
  await page.getByTestId('goods-add').click();
  const dialog = page.getByTestId('goods-dialog');
  await dialog.getByTestId('goods-name').fill(name);
  await dialog.locator('input[type=file]').setInputFiles(picture('goods.png', [200, 120, 60]));
  await expect(dialog.locator('.article-cover-input img')).toBeVisible();
  await dialog.getByTestId('goods-price').fill('39.90');
  await dialog.getByTestId('goods-stock').fill('5');
  await dialog.getByTestId('goods-grantkind').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle('课程', { exact: true }).click();
  await dialog.getByTestId('goods-grant-course').click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(course).click();
  await page.screenshot({ path: path.join(shots, 'console-goods-dialog-zh-CN-1440.png') });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator('tr.ant-table-row', { hasText: name });
  await expect(row).toContainText('¥39.90');
  await expect(row).toContainText(`课程：${course}`);
  await expect(row).toContainText('待上架');
  await row.getByRole('button', { name: '上架' }).click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await expect(row).toContainText('在售');

  // On the phone, the course is sold, so locked: lesson titles only, no player.
  const provider = await apiSignIn(request, 'provider');
  const made = await apiCall(
    request,
    'as.m.user.createMUserClient',
    { musercode: 'I0001', title: '滨江一中心理中心', appids: ['000000002'], showresult: 1, hotline: '0571-86001234' },
    provider.token,
  );
  expect(made.errorCode, made.errorMsg).toBe(0);
  const entry = new URL((made.data as { qrcodeurl: string }).qrcodeurl).pathname;
  await page.setViewportSize(PHONE);
  await page.goto(`${entry}/media`);
  const locked = page.locator('.r-course', { hasText: course });
  await expect(locked).toHaveAttribute('data-locked', 'true');
  await expect(locked).toContainText('购买后可观看');
  await expect(locked.locator('audio, video')).toHaveCount(0);
  await axe(page, 'media-locked');
  await page.screenshot({ path: path.join(shots, 'respondent-zh-media-locked.png'), fullPage: true });

  // They buy it and pay at the sandbox provider's cashier (its own page), which sends them back.
  await page.goto(entry);
  await page.getByTestId('r-shop-link').click();
  const card = page.getByTestId('r-goods').locator('li', { hasText: name });
  await expect(card).toContainText('¥39.90');
  await expect(card).toContainText(`含课程：${course}`);
  await axe(page, 'shop');
  await page.screenshot({ path: path.join(shots, 'respondent-zh-shop.png'), fullPage: true });
  await page.getByTestId('r-lang').click();
  await expect(card.getByRole('button', { name: 'Buy' })).toBeVisible();
  await page.screenshot({ path: path.join(shots, 'respondent-en-shop.png'), fullPage: true });
  await page.getByTestId('r-lang').click();
  await card.getByRole('button', { name: '购买' }).click();
  await page.getByTestId('r-order').click();
  await expect(page.getByText('请填写姓名')).toBeVisible();
  // The buyer is taken to the first field to fix, which names its problem to a screen reader.
  await expect(page.getByTestId('r-buyer-name')).toBeFocused();
  await expect(page.getByTestId('r-buyer-name')).toHaveAccessibleDescription('请填写姓名');
  await page.getByTestId('r-buyer-name').fill('赵小满');
  await page.getByTestId('r-buyer-phone').fill('13912345678');
  await axe(page, 'buy');
  await page.getByTestId('r-order').click();
  await expect(page).toHaveURL(/\/pay\/sandbox\/cashier\?/);
  await expect(page.getByTestId('cashier-amount')).toHaveText('应付 ¥39.90');
  await expect(page.getByTestId('cashier-subject')).toContainText(name);
  await expect(page.getByTestId('cashier-note')).toContainText('沙箱');
  await axe(page, 'cashier');
  await page.screenshot({ path: path.join(shots, 'respondent-zh-cashier.png'), fullPage: true });
  await page.getByTestId('r-lang').click();
  await expect(page.getByTestId('cashier-amount')).toHaveText('To pay: ¥39.90');
  await page.screenshot({ path: path.join(shots, 'respondent-en-cashier.png'), fullPage: true });
  await page.getByTestId('r-lang').click();
  await page.getByTestId('cashier-pay').click();
  // Back at the shop with the order the cashier paid, as the server has it after the signed callback.
  await expect(page).toHaveURL(/\/shop\?order=OR/);
  await expect(page.getByTestId('r-order-status')).toHaveText('已支付，感谢购买！');
  await expect(page.getByTestId('r-grant')).toContainText(`课程“${course}”已为您开通。`);
  await axe(page, 'paid');
  await page.screenshot({ path: path.join(shots, 'respondent-zh-paid.png'), fullPage: true });
  await page.getByTestId('r-lang').click();
  await expect(page.getByTestId('r-order-status')).toHaveText('Paid. Thank you!');
  await page.screenshot({ path: path.join(shots, 'respondent-en-paid.png'), fullPage: true });
  await page.getByTestId('r-lang').click();

  // The course is theirs now: the lessons play (a generated WAV, fetched by the player in byte ranges).
  await page.getByTestId('r-open-course').click();
  const open = page.locator('.r-course', { hasText: course });
  await expect(open).toHaveAttribute('data-locked', 'false');
  await expect(open).toContainText('已购买');
  await open.locator('summary').first().click();
  const audio = open.locator('audio').first();
  // A signed URL that expires (issue 27 item 11); the bare /files/ URL of a lesson answers 404.
  await expect(audio).toHaveAttribute('src', /^\/files\/[0-9a-f]{32}\.wav\?exp=\d+&sig=[0-9a-f]{64}$/);
  expect((await page.request.get((await audio.getAttribute('src'))!.split('?')[0]!)).status()).toBe(404);
  const duration = await audio.evaluate(
    (a: HTMLAudioElement) =>
      new Promise<number>((resolve, reject) => {
        a.addEventListener('loadedmetadata', () => resolve(a.duration), { once: true });
        a.addEventListener('error', () => reject(new Error('the lesson did not load')), { once: true });
        a.load();
      }),
  );
  expect(duration).toBeCloseTo(6, 0);
  const ranged = await page.request.get((await audio.getAttribute('src'))!, { headers: { range: 'bytes=0-43' } });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).subarray(0, 4).toString()).toBe('RIFF');
  await axe(page, 'media-bought');
  await page.screenshot({ path: path.join(shots, 'respondent-zh-media-bought.png'), fullPage: true });

  // Staff see it paid and granted, with the buyer masked, and refund ¥10 of it.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/operations/orderManagement');
  const order = page.locator('tr.ant-table-row', { hasText: name });
  await expect(order).toContainText('已支付');
  await expect(order).toContainText('赵*满 139****5678');
  await expect(order.getByTestId('order-grant')).toHaveText('课程：已开通');
  await order.getByRole('button', { name: '退款' }).click();
  const refund = page.getByTestId('refund-dialog');
  await refund.getByTestId('refund-amount').fill('50');
  await refund.getByRole('button', { name: /确\s*定/ }).click();
  await expect(refund).toContainText('退款金额须在 ¥0.01 与 ¥39.90 之间');
  await refund.getByTestId('refund-amount').fill('10');
  await refund.getByRole('button', { name: /确\s*定/ }).click();
  await expect(refund).toBeHidden();
  await expect(order).toContainText('部分退款');
  await expect(order).toContainText('¥10.00');
  await order.getByRole('button', { name: '记录' }).click();
  const drawer = page.getByTestId('order-drawer');
  await expect(drawer.getByTestId('order-drawer-status')).toHaveText('部分退款');
  await expect(drawer).toContainText('已支付 → 部分退款 · ¥10.00');
  await expect(drawer).toContainText(`课程：已开通 ${course}`);
  await page.screenshot({ path: path.join(shots, 'console-order-history-zh-CN-1440.png') });

  // The amount filter: a range in yuan.
  await page.keyboard.press('Escape');
  await page.getByTestId('money-range-min').fill('39');
  await page.getByTestId('money-range-max').fill('30');
  await page.getByTestId('list-search').getByRole('button', { name: /搜\s*索/ }).click();
  await expect(page.getByText('最低值不能大于最高值')).toBeVisible();
  await page.getByTestId('money-range-max').fill('40');
  await page.getByTestId('list-search').getByRole('button', { name: /搜\s*索/ }).click();
  await expect(page).toHaveURL(/amountmin=3900&amountmax=4000/);
  await expect(page.locator('tr.ant-table-row', { hasText: name })).toBeVisible();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(1);

  await consoleShots(page, '/operations/goodsManagement', 'console-goods', () =>
    expect(page.locator('tr.ant-table-row', { hasText: name })).toBeVisible(),
  );
  await consoleShots(page, '/operations/orderManagement?amountmin=3900&amountmax=4000', 'console-orders', () =>
    expect(page.locator('tr.ant-table-row', { hasText: name })).toBeVisible(),
  );
  // Each language's order page is loaded afresh, so that the history's first read is the one
  // refused (a second opening may be answered from the console's cache); the drawer and the dialog
  // are photographed at 1024 px and then widened to 1440 while open.
  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    await page.setViewportSize({ width: 1024, height: 860 });
    await page.goto('/operations/orderManagement');
    // Its first read fails: the drawer says so with a retry (it kept a spinner turning), and the retry shows the order.
    let reads = 0;
    await page.route('**/api/as.m.order.getOrderHistory/**', (route) => (++reads === 1 ? route.abort('connectionfailed') : route.continue()));
    await page.locator('tr.ant-table-row', { hasText: name }).getByTestId(/^order-history-/).click();
    await expect(drawer.getByTestId('list-error')).toContainText(lang === 'zh-CN' ? '数据加载失败' : 'Failed to load data');
    await shootWidths(page, { dir: shots, name: `console-order-drawer-error-${lang}`, fullPage: false });
    await drawer.getByRole('button', { name: lang === 'zh-CN' ? /重\s*试/ : 'Retry' }).click();
    await page.unroute('**/api/as.m.order.getOrderHistory/**');
    await expect(drawer.getByTestId('order-grant')).toBeVisible();
    await shootWidths(page, { dir: shots, name: `console-order-drawer-${lang}`, fullPage: false });
    await page.goto('/operations/goodsManagement');
    await page.locator('tr.ant-table-row', { hasText: name }).getByTestId(/^goods-edit-/).click();
    await expect(page.getByTestId('goods-grant-course')).toBeVisible();
    await shootWidths(page, { dir: shots, name: `console-goods-dialog-${lang}`, fullPage: false });
  }
  await setLanguage(page, 'zh-CN');
});

test('music and courses: the demo tracks play on the console and on the respondent page', async ({ page, request }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(shots, { recursive: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'school', { path: '/operations/musicManagement' });
  const track = page.locator('tr.ant-table-row', { hasText: '海浪与呼吸' });
  await expect(track.locator('audio')).toHaveAttribute('src', /^\/files\/[0-9a-f]{32}\.wav$/);
  await page.goto('/operations/cloudClassroom');
  await page.getByTestId('course-add').click();
  const dialog = page.getByTestId('course-dialog');
  await dialog.getByTestId('course-title').fill('情绪认识课');
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('tr.ant-table-row', { hasText: '情绪认识课' })).toBeVisible();
  await consoleShots(page, '/operations/musicManagement', 'console-music', () =>
    expect(page.locator('tr.ant-table-row', { hasText: '海浪与呼吸' })).toBeVisible(),
  );
  await consoleShots(page, '/operations/cloudClassroom', 'console-courses', () =>
    expect(page.locator('tr.ant-table-row', { hasText: '情绪认识课' })).toBeVisible(),
  );

  const provider = await apiSignIn(request, 'provider');
  const made = await apiCall(
    request,
    'as.m.user.createMUserClient',
    { musercode: 'I0001', title: '滨江一中心理中心', appids: ['000000002'], showresult: 1, hotline: '0571-86001234' },
    provider.token,
  );
  const entry = new URL((made.data as { qrcodeurl: string }).qrcodeurl).pathname;
  await page.setViewportSize(PHONE);
  await page.goto(entry);
  await page.getByTestId('r-media-link').click();
  const tracks = page.getByTestId('r-tracks');
  await expect(tracks.locator('li', { hasText: '海浪与呼吸' }).locator('audio')).toBeVisible();
  await expect(page.getByText('情绪认识课')).toBeVisible();
  await axe(page, 'media');
  await page.screenshot({ path: path.join(shots, 'respondent-zh-media.png'), fullPage: true });
});
