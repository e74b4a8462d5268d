/**
 * English column titles break between words, never inside one (issue 28 item 20: "Abnorm/al" in
 * the statistics class table). Every word of every table header on the bureau's dashboard sits
 * on one line, at 1024 and 1440 px.
 */
import { expect, test } from '@playwright/test';
import { setLanguage, signIn } from './support';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-persons';

test('table headers keep their English words whole (bureau dashboard, 1024 and 1440 px)', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/login');
  await setLanguage(page, 'en-US');
  await signIn(page, 'bureau');
  for (const width of [1440, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/statistics/statistics');
    const table = page.getByTestId('stats-class-table');
    await expect(table.locator('tr.ant-table-row').first()).toBeVisible({ timeout: 60_000 });
    await expect(table.locator('th').filter({ hasText: /^Abnormal$/ })).toHaveCount(1);
    // A word cut across two lines has two boxes.
    const broken = await page.locator('.ant-table-thead th').evaluateAll((cells) =>
      cells.flatMap((th) => {
        const out: string[] = [];
        const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const text = n.textContent ?? '';
          for (const m of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(n, m.index);
            range.setEnd(n, m.index + m[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (lines.size > 1) out.push(m[0]);
          }
        }
        return out;
      }),
    );
    expect(broken, `width ${width}`).toEqual([]);
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/stats-class-table-en-US-${width}.png` });
  }
});
