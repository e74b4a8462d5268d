/** Checks several specs share: an API answer that must succeed, and axe on a respondent screen. */
import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

/** The data of an API answer that must have succeeded (its message shown when it did not). */
export async function ok<T>(p: Promise<{ errorCode: number; errorMsg: string; data: unknown }>): Promise<T> {
  const body = await p;
  expect(body.errorCode, body.errorMsg).toBe(0);
  return body.data as T;
}

/** WCAG 2.1 AA with axe-core: no serious or critical violation on the page as it is now. */
export async function axe(page: Page, step: string) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${step}: ${v.id} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(bad).toEqual([]);
}
