import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Confirms the confirmation dialog that names `subject`. Found by its text, not as "the dialog":
 * on a loaded machine the previous confirmation can still be closing when the next one is asked
 * for, and a click on the closing one's button does nothing.
 */
export async function confirmDialog(page: Page, subject: string | RegExp) {
  await page
    .getByRole('dialog')
    .filter({ hasText: subject })
    .getByRole('button', { name: /^确\s*定$|^OK$/ })
    .click();
}

/**
 * Every labelled field of a horizontal form in `scope` has its control beside its label, on the
 * same line: a long help text or chosen option once pushed the control below and clipped the label.
 */
export async function expectControlsBesideLabels(scope: Locator) {
  const rows = await scope.locator('.ant-form-item-row').evaluateAll((items) =>
    items.flatMap((row) => {
      const label = row.querySelector(':scope > .ant-form-item-label');
      const control = row.querySelector(':scope > .ant-form-item-control');
      if (!label || !control) return [];
      const [l, c] = [label.getBoundingClientRect(), control.getBoundingClientRect()];
      return [{ label: label.textContent ?? '', beside: c.left >= l.right - 1 && c.top < l.bottom }];
    }),
  );
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.filter((r) => !r.beside).map((r) => r.label)).toEqual([]);
}
