import type { Page } from '@playwright/test';

/**
 * Switches the console's language for the next page load: the `language` cookie the navbar's
 * switch writes, on the whole site. (A cookie given the current page's URL gets that page's folder
 * as its path, e.g. /archives/, and every other page stayed in the old language.)
 */
export async function setLanguage(page: Page, lang: string) {
  await page.context().addCookies([{ name: 'language', value: lang, url: new URL('/', page.url()).href }]);
}
