/**
 * Internationalisation: Chinese (zh-CN) is the default, English (en-US) the second language.
 *
 * WHERE MESSAGES LIVE: `areas/common.ts` holds the words every page shares (`common.save`);
 * `areas/shell.ts` the layout's; domain words live in one file per resource under a folder per
 * top menu: `areas/<menu>/<resource>.ts`, keys `<menu>.<resource>.<field>` (`authority.role.rolename`).
 * A file default-exports `defineArea({ zh: {...}, en: {...} })` and is picked up automatically;
 * its line in keys.ts gives its keys a type, so `useT('authority.role')` (useT.ts) takes only keys that exist.
 * Both languages must have the same keys; defineArea makes a missing one a type error. Columns,
 * filters and form fields find their label by this convention (lib/labels.ts).
 *
 * The chosen language is kept in the cookie `language` (not local storage: sign-out clears
 * local storage, and the sign-in page should stay in the language the user picked).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import Cookies from 'js-cookie';

export type Language = 'zh-CN' | 'en-US';
export const languages: { value: Language; label: string }[] = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en-US', label: 'English' },
];
export const LANGUAGE_COOKIE = 'language';

export type AreaModule = { default: { zh: Record<string, unknown>; en: Record<string, unknown> } };
/**
 * The sign-in page's words (the shell area) load with it; the other areas load with the
 * console (i18n/console.ts), so the sign-in page does not grow with every page's messages (bench/web).
 */
const firstAreas = import.meta.glob<AreaModule>('./areas/shell.ts', { eager: true });

/** ./areas/common.ts -> common; ./areas/authority/role.ts -> authority.role, per language. */
export function buildResources(areas: Record<string, AreaModule>) {
  const zh: Record<string, Record<string, unknown>> = {};
  const en: Record<string, Record<string, unknown>> = {};
  for (const [file, mod] of Object.entries(areas)) {
    const [area, resource] = file
      .replace(/^\.\/areas\//, '')
      .replace(/\.ts$/, '')
      .split('/');
    if (resource) {
      (zh[area] ??= {})[resource] = mod.default.zh;
      (en[area] ??= {})[resource] = mod.default.en;
    } else {
      zh[area] = { ...zh[area], ...mod.default.zh };
      en[area] = { ...en[area], ...mod.default.en };
    }
  }
  return { 'zh-CN': { translation: zh }, 'en-US': { translation: en } };
}

export function storedLanguage(): Language {
  const v = Cookies.get(LANGUAGE_COOKIE);
  return v === 'en-US' ? 'en-US' : 'zh-CN';
}

/** The page's language; dates follow in the console (i18n/console.ts). */
function applyLanguage(lang: Language) {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

void i18n.use(initReactI18next).init({
  resources: buildResources(firstAreas),
  lng: storedLanguage(),
  fallbackLng: 'zh-CN',
  interpolation: { escapeValue: false },
  returnNull: false,
});
applyLanguage(i18n.language as Language);

export function currentLanguage(): Language {
  return i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
}

export async function setLanguage(lang: Language) {
  Cookies.set(LANGUAGE_COOKIE, lang, { expires: 365, sameSite: 'Lax' });
  applyLanguage(lang);
  await i18n.changeLanguage(lang);
}

/** Translate outside React (request client, route guards). */
export const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options) as string;

/** A bilingual label ({zh, en}, as in the contract's menus and enums) in the current language. */
export function pick(label: { zh: string; en: string }, lang: Language = currentLanguage()): string {
  return lang === 'en-US' ? label.en : label.zh;
}

export default i18n;
