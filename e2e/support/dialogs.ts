import type { Page } from '@playwright/test';

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
