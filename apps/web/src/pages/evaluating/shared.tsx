/**
 * Small pieces shared by the plan-management pages: the band-level tag in the five-level report
 * colours, bilingual labels of the contract's enums, and the population-app options.
 */
import { Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormType, InputType, LevelColours, MentalState, QuestionType, type EnumItem, type LocalText } from '@xinli/contract';
import { call } from '../../api';
import { pick, type Language } from '../../i18n';

export const LEVELS = [0, 1, 2, 3, 4] as const;

/** The colour of a band level on the five-level scale (green .. dark red). */
export const levelColour = (level: number | null | undefined): string => LevelColours[Math.min(4, Math.max(0, level ?? 0))];

/** The current console language, typed. */
export function useLang(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
}

/** A {zh, en} text in the current language; English falls back to Chinese when not translated. */
export function useLocalText() {
  const lang = useLang();
  return (text: LocalText | null | undefined): string => {
    if (!text) return '';
    return lang === 'en-US' ? text.en || text.zh : text.zh;
  };
}

/** Options of a contract enum ({value, zh, en}) for a Select, in the current language. */
export function useEnumOptions<V extends string | number>(list: EnumItem<V>[]) {
  const lang = useLang();
  return list.map((i) => ({ value: i.value, label: pick(i, lang) }));
}

export const formTypeOptions = () => FormType;
export { FormType, InputType, QuestionType, MentalState };

/** Band level label ("中度" / "Moderate") for levels 0..4. */
export function useLevelLabel() {
  const { t } = useTranslation();
  return (level: number) => t(`evaluating.levels.l${level}`);
}

/**
 * A solid tag in the band's colour: what staff scan for in lists and results. `label` is the
 * band's own name when there is one, else the level's name.
 */
export function LevelTag({ level, colour, label }: { level: number | null | undefined; colour?: string | null; label?: string }) {
  const levelLabel = useLevelLabel();
  if (level === null || level === undefined) return null;
  return (
    <Tag variant="solid" color={colour || levelColour(level)} data-testid="level-tag" data-level={level} style={{ marginInlineEnd: 0 }}>
      {label || levelLabel(level)}
    </Tag>
  );
}

/** State 0 "none" (no banded indicator) is grey; good .. severe follow the report colours. */
const MENTAL_STATE_COLOURS = ['#8c8c8c', LevelColours[0], LevelColours[1], LevelColours[2], LevelColours[4]];

/** The overall mental state (0..4) as a coloured tag: state 1 good is green, 4 severe dark red. */
export function MentalStateTag({ state }: { state: number }) {
  const lang = useLang();
  const item = MentalState.find((m) => m.value === state);
  const colour = MENTAL_STATE_COLOURS[state] ?? MENTAL_STATE_COLOURS[0];
  return (
    <Tag variant="solid" color={colour} data-testid="mental-state-tag">
      {item ? pick(item, lang) : String(state)}
    </Tag>
  );
}

/** The population apps (SPEC §3 four groups + custom), cached for the session. */
export function useApps() {
  return useQuery({
    queryKey: ['as.m.app.getAppList', {}],
    queryFn: () => call('as.m.app.getAppList', {}),
    staleTime: 10 * 60_000,
  });
}

/** Population apps as Select options (id -> name). */
export function useAppOptions() {
  const apps = useApps();
  return {
    options: (apps.data ?? []).map((a) => ({ value: a.appid, label: a.appname })),
    loading: apps.isLoading,
    nameOf: (id: string) => apps.data?.find((a) => a.appid === id)?.appname ?? id,
  };
}
