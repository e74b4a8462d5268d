import { expect, type Page } from '@playwright/test';

/**
 * Switches the console's language for the next page load: the `language` cookie the navbar's
 * switch writes, on the whole site. (A cookie given the current page's URL gets that page's folder
 * as its path, e.g. /archives/, and every other page stayed in the old language.)
 */
export async function setLanguage(page: Page, lang: string) {
  await page.context().addCookies([{ name: 'language', value: lang, url: new URL('/', page.url()).href }]);
}

/**
 * Switches the console's language in place, as a user does with the navbar's switch: the page
 * already drawn is drawn again in the other language, without loading the console again (about
 * 1 s of CPU a load on the 2-core machine). Nothing happens when the page is in that language; a
 * page without the navbar is loaded again in it.
 */
export async function switchLanguage(page: Page, lang: 'zh-CN' | 'en-US') {
  const html = page.locator('html');
  if ((await html.getAttribute('lang')) === lang) return;
  const languageSwitch = page.getByTestId('navbar').getByTestId('language-switch');
  if (!(await languageSwitch.isVisible())) {
    // A page outside the console's frame (the big screen): the cookie, then one load.
    await setLanguage(page, lang);
    await page.reload();
    await expect(html).toHaveAttribute('lang', lang);
    return;
  }
  await languageSwitch.click();
  await page.getByRole('menuitem', { name: lang === 'zh-CN' ? '简体中文' : 'English' }).click();
  await expect(html).toHaveAttribute('lang', lang);
  await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0);
}
