/** Options and labels in the current language: enabled/disabled, contract enumerations. */
import { useTranslation } from 'react-i18next';
import type { EnumItem, LocalText } from '@xinli/contract';
import { pick, type Language } from '../i18n';

/** The current console language, typed. */
export function useLang(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
}

/** SPEC §3 enabled: 1 enabled, 0 disabled. */
export function useEnabledOptions() {
  const { t } = useTranslation();
  return [
    { value: 1, label: t('common.enabled') },
    { value: 0, label: t('common.disabled') },
  ];
}

/** Options of a contract enum ({value, zh, en}) for a Select, in the current language. */
export function useEnumOptions<V extends string | number>(list: EnumItem<V>[]) {
  const lang = useLang();
  return list.map((i) => ({ value: i.value, label: pick(i, lang) }));
}

/** A {zh, en} text in the current language; English falls back to Chinese when not translated. */
export function useLocalText() {
  const lang = useLang();
  return (text: LocalText | null | undefined): string => {
    if (!text) return '';
    return lang === 'en-US' ? text.en || text.zh : text.zh;
  };
}
