import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { switchLanguage } from './language';

/**
 * Photographs a page in Chinese and in English at each width (`<dir>/<name>-<lang>-<width>.png`).
 * The page is loaded once (not again when it is already open) and then switched to each language
 * in place and resized, as a user switches and resizes (tables and charts follow). `ready` waits
 * for, and checks, what must be drawn at each width. The page is in Chinese again afterwards.
 */
export async function shootInBothLanguages(
  page: Page,
  shot: { url: string; dir: string; name: string; ready: () => Promise<void>; widths?: number[]; fullPage?: boolean },
) {
  const { url, dir, name, ready, widths = [1024, 1440], fullPage = true } = shot;
  const [here, wanted] = [new URL(page.url()), new URL(url, page.url())];
  if (here.pathname + here.search !== wanted.pathname + wanted.search) await page.goto(url);
  for (const lang of ['zh-CN', 'en-US'] as const) {
    await switchLanguage(page, lang);
    await shootWidths(page, { dir, name: `${name}-${lang}`, ready, widths, fullPage });
  }
  await switchLanguage(page, 'zh-CN');
}

/**
 * Photographs the page as it is now (a drawer or a dialog open, say) at each width
 * (`<dir>/<name>-<width>.png`), resizing it in place; `ready` waits for, and checks, what must be
 * drawn at each width. The window is left at the last width.
 */
export async function shootWidths(
  page: Page,
  shot: { dir: string; name: string; ready?: () => Promise<void>; widths?: number[]; fullPage?: boolean },
) {
  const { dir, name, ready, widths = [1024, 1440], fullPage = true } = shot;
  for (const width of widths) {
    await page.setViewportSize({ width, height: width > 1440 ? 1080 : 900 });
    await chartsFitted(page);
    await ready?.();
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage });
  }
}

/**
 * Resolves once every chart is drawn at its box's size (a chart follows a change of the window's
 * size after a pause); fails naming the charts that are not, as "drawn/box" sizes.
 */
export async function chartsFitted(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('[_echarts_instance_]')]
          .map((chart) => {
            const drawn = (chart.firstElementChild as HTMLElement | null)?.style;
            return [`${drawn?.width}×${drawn?.height}`, `${chart.clientWidth}px×${chart.clientHeight}px`];
          })
          .filter(([drawn, box]) => drawn !== box)
          .map(([drawn, box]) => `${drawn}/${box}`),
      ),
    )
    .toEqual([]);
}
