import path from 'node:path';
import type { Page } from '@playwright/test';
import { setLanguage } from './language';

/**
 * Photographs a page in Chinese and in English at each width (`<dir>/<name>-<lang>-<width>.png`).
 * The page is loaded once a language at the first width and then resized, as a user resizes the
 * window (tables and charts follow it); it is not loaded again when it is already open in that
 * language. `ready` waits for, and checks, what must be drawn at each width. The language is
 * Chinese again afterwards.
 */
export async function shootInBothLanguages(
  page: Page,
  shot: { url: string; dir: string; name: string; ready: () => Promise<void>; widths?: number[]; fullPage?: boolean },
) {
  const { url, dir, name, ready, widths = [1024, 1440], fullPage = true } = shot;
  for (const lang of ['zh-CN', 'en-US']) {
    await setLanguage(page, lang);
    const [here, wanted] = [new URL(page.url()), new URL(url, page.url())];
    const open =
      here.pathname + here.search === wanted.pathname + wanted.search && (await page.locator('html').getAttribute('lang')) === lang;
    for (const [i, width] of widths.entries()) {
      await page.setViewportSize({ width, height: width > 1440 ? 1080 : 900 });
      if (i === 0 && !open) await page.goto(url);
      await ready();
      await page.screenshot({ path: path.join(dir, `${name}-${lang}-${width}.png`), fullPage });
    }
  }
  await setLanguage(page, 'zh-CN');
}
