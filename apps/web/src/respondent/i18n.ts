/**
 * The respondent pages' own tiny i18n (the console's i18next setup is not loaded here, to keep
 * the bundle small). Language: ?lang=, then the respondent's last choice, then the phone's.
 */
import { useSyncExternalStore } from 'react';
import zhCN, { type Messages } from './messages/zh-CN';
import enUS from './messages/en-US';

export type Lang = 'zh-CN' | 'en-US';
const STORE_KEY = 'respondent.lang';
const catalogues: Record<Lang, Messages> = { 'zh-CN': zhCN, 'en-US': enUS };

/** Every dotted key of the catalogue, so t() only takes keys that exist in both languages. */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type MessageKey = Leaves<Messages>;

function initialLang(): Lang {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'en' || asked === 'en-US') return 'en-US';
  if (asked === 'zh' || asked === 'zh-CN') return 'zh-CN';
  const kept = safeStorage()?.getItem(STORE_KEY);
  if (kept === 'zh-CN' || kept === 'en-US') return kept;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

let lang: Lang = initialLang();
const listeners = new Set<() => void>();
document.documentElement.lang = lang;

export function currentLang(): Lang {
  return lang;
}

export function setLang(next: Lang) {
  lang = next;
  document.documentElement.lang = next;
  safeStorage()?.setItem(STORE_KEY, next);
  listeners.forEach((l) => l());
}

/** Re-renders the caller when the language changes. */
export function useLang(): Lang {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => lang,
  );
}

export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  let node: unknown = catalogues[lang];
  for (const part of key.split('.')) node = (node as Record<string, unknown>)[part];
  return String(node).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
}

/** A text the server sends in both languages (scale wording): English falls back to Chinese. */
export function local(text: { zh: string; en: string } | undefined | null): string {
  if (!text) return '';
  return lang === 'en-US' ? text.en || text.zh : text.zh;
}

/** localStorage, or null where the browser refuses it (private mode, blocked storage). */
export function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
