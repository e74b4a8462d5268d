import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { actionQuery, useAction } from '../../../components/query';
import { useLang } from '../../../lib/options';

/** Stage picker options of one app, grouped by exam category. */
export function useStageOptions(appid: string | undefined) {
  const q = useAction('as.m.app.exam.getExamStageListGroupByAppidCategoryid', { appid: appid ?? '' }, { enabled: !!appid });
  const options = (q.data ?? []).map((g) => ({
    label: g.categoryname,
    title: g.categoryname,
    options: g.stages.map((s) => ({ value: s.stagecode, label: s.stagename })),
  }));
  return { options, loading: q.isLoading };
}

/**
 * Scale picker options of one app: enabled built-in and own scales; a scale without its item text
 * says so in its label (a plan holding it cannot be given). `textless` maps those to their names.
 */
export function useFormOptions(appid: string | undefined) {
  const { t } = useTranslation();
  const q = useAction('as.m.exam.getExamForms', { appid: appid ?? '' }, { enabled: !!appid });
  return {
    options: (q.data ?? []).map((f) => ({ value: f.formcode, label: f.textless ? t('evaluating.library.textlessOption', { name: f.formname }) : f.formname })),
    textless: new Map((q.data ?? []).filter((f) => f.textless).map((f) => [f.formcode, f.formname])),
    loading: q.isLoading,
  };
}

/**
 * The names of the scales without item text that a plan being edited would hold: the scales
 * chosen for its stages and outside them, and a stage's own scales where none are chosen.
 */
export function useTextlessInPlan(stages: { stagecode?: string; formcodes?: string[] }[] | undefined, loose: string[] | undefined, textless: Map<string, string>): string[] {
  const ownForms = [...new Set((stages ?? []).filter((s) => s.stagecode && !s.formcodes?.length).map((s) => s.stagecode!))];
  const lang = useLang();
  const stageForms = useQueries({ queries: ownForms.map((stagecode) => actionQuery('as.m.app.exam.getExamStageForms', { stagecode }, lang)) });
  const chosen = [...(stages ?? []).flatMap((s) => s.formcodes ?? []), ...(loose ?? [])].filter((f) => textless.has(f)).map((f) => textless.get(f)!);
  const fromStages = stageForms.flatMap((q) => (q.data ?? []).filter((f) => f.textless).map((f) => f.formname));
  return [...new Set([...chosen, ...fromStages])];
}
