/** Checks several specs share: an API answer that must succeed, and axe on a respondent screen. */
import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/** The data of an API answer that must have succeeded (its message shown when it did not). */
export async function ok<T>(p: Promise<{ errorCode: number; errorMsg: string; data: unknown }>): Promise<T> {
  const body = await p;
  expect(body.errorCode, body.errorMsg).toBe(0);
  return body.data as T;
}

/**
 * WCAG 2.1 AA with axe-core: no serious or critical violation on the page as it is now. axe runs
 * in the page itself (`axe.run`, its "legacy" mode), every same-origin frame included: the default
 * mode also opens a blank page to merge each frame's results, which only cross-origin frames need
 * (no respondent page has one). Its 580 kB source is put into a document once, not at every check
 * of the screens a single-page flow goes through (AxeBuilder evaluates its source at each analyze:
 * it is given `void 0` instead when the page has axe). A check of a respondent screen took 0.9 s
 * in the default mode, 0.55 s in the page with the source each time, 0.1 s now (2026-11-30, a
 * middling machine).
 */
export async function axe(page: Page, step: string) {
  const present = await page.evaluate(() => 'axe' in window);
  const result = await new AxeBuilder({ page, ...(present ? { axeSource: 'void 0' } : {}) })
    .setLegacyMode()
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${step}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(bad).toEqual([]);
}

/**
 * 200% zoom: browser zoom at 200% on a 390 px phone lays the page out in 195 CSS pixels (each
 * CSS pixel drawn twice as large), so the layout is checked at a 195 px viewport: nothing wider
 * than the viewport (no horizontal scrolling, WCAG 1.4.10 reflow) and no visible control or text
 * cut off at the right edge. The viewport goes back to 390 px afterwards.
 */
export async function zoomCheck(page: Page, step: string, PHONE: { width: number; height: number } = { width: 390, height: 844 }) {
  await page.setViewportSize({ width: PHONE.width / 2, height: PHONE.height / 2 });
  const problems = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1)
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.querySelectorAll<HTMLElement>(
      'h1, h2, h3, p, label, legend, button, input, select, textarea, a, [role=progressbar], canvas',
    )) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.right > width + 1 || r.left < -1)
        out.push(
          `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" spans ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`,
        );
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'hidden')
        out.push(`${el.tagName.toLowerCase()} clips its text`);
    }
    return out;
  });
  await page.setViewportSize(PHONE);
  expect(problems, `200% zoom, ${step}`).toEqual([]);
}
