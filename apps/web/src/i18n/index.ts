/**
 * Internationalisation: Chinese (zh-CN) is the default, English (en-US) the second language.
 *
 * HOW TO ADD YOUR AREA'S MESSAGES: create `src/i18n/areas/<area>.ts` that default-exports
 * `defineArea({ zh: {...}, en: {...} })` (see areas/shell.ts). It is picked up automatically
 * (no registration line); its keys live under the area name: `t('<area>.someKey')`.
 * Both languages must have the same keys; defineArea makes a missing one a type error.
 *
 * The chosen language is kept in the cookie `language` (not local storage: sign-out clears
 * local storage, and the sign-in page should stay in the language the user picked).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import Cookies from 'js-cookie';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';

export type Language = 'zh-CN' | 'en-US';
export const languages: { value: Language; label: string }[] = [
  { value: 'zh-CN', label: '简体中文' },
  { value: 'en-US', label: 'English' },
];
export const LANGUAGE_COOKIE = 'language';

type AreaModule = { default: { zh: Record<string, unknown>; en: Record<string, unknown> } };
const areas = import.meta.glob<AreaModule>('./areas/*.ts', { eager: true });

function buildResources() {
  const zh: Record<string, unknown> = {};
  const en: Record<string, unknown> = {};
  for (const [file, mod] of Object.entries(areas)) {
    const area = file.replace(/^.*\/([^/]+)\.ts$/, '$1');
    zh[area] = mod.default.zh;
    en[area] = mod.default.en;
  }
  return { 'zh-CN': { translation: zh }, 'en-US': { translation: en } };
}

export function storedLanguage(): Language {
  const v = Cookies.get(LANGUAGE_COOKIE);
  return v === 'en-US' ? 'en-US' : 'zh-CN';
}

function applyLanguage(lang: Language) {
  dayjs.locale(lang === 'en-US' ? 'en' : 'zh-cn');
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}

void i18n.use(initReactI18next).init({
  resources: buildResources(),
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
