/**
 * Shared data pickers: the institutions the caller manages (providers see several), the
 * population apps, and the assessment stages. Each is cached for the session by TanStack Query.
 */
import type { ReactNode } from 'react';
import { Select, Spin, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { PopulationApp } from '@xinli/contract';
import { useAction } from './query';
import { RetryLine } from './list/states';

/**
 * Where an institution picker's options come from: `managed`, the accounts whose roles,
 * departments and users the caller manages (its own first, then a provider's institutions);
 * `stats`, the accounts the caller's statistics cover (a bureau: the schools of its region).
 */
export type InstitutionSource = 'managed' | 'stats';
const SOURCE_ACTION = {
  managed: 'as.m.system.muser.selectInstitutionList',
  stats: 'as.m.assess.getStatsInstitutionList',
} as const;

/**
 * The institutions of a source; `many` says whether an institution picker is worth showing. A
 * failed read shows it too: hidden, a provider's dialog would create for its own account with no
 * word, where the picker says the read failed and offers a retry.
 */
export function useInstitutions(source: InstitutionSource = 'managed', enabled = true) {
  const action = SOURCE_ACTION[source];
  const q = useAction(action, {}, { staleTime: 60_000, enabled });
  const list = q.data ?? [];
  return {
    read: q,
    list,
    // Failed once and not read since: kept shown while it reads again (its error is cleared then).
    many: list.length > 1 || (!q.data && q.errorUpdatedAt > 0),
    own: list[0]?.musercode,
    nameOf: (code: string) => list.find((i) => i.musercode === code)?.insname ?? code,
  };
}

/** A searchable picker of the institutions of a source (by default those the caller manages). */
export function InstitutionSelect({ source, ...props }: SelectProps<string> & { source?: InstitutionSource }) {
  const { t } = useTranslation();
  const { read, list } = useInstitutions(source);
  return (
    <Select<string>
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('common.choose', { field: t('common.institution') })}
      options={list.map((i) => ({ value: i.musercode, label: i.insname || i.musercode }))}
      notFoundContent={noOptions(read, t('common.noInstitution'))}
      {...props}
    />
  );
}

/** The population apps (SPEC §3 four groups + custom) as options; `nameOf` names an app id. */
export function useApps(enabled = true) {
  const q = useAction('as.m.app.getAppList', {}, { staleTime: 10 * 60_000, enabled });
  return {
    query: q,
    options: (q.data ?? []).map((a) => ({ value: a.appid, label: a.appname })),
    loading: q.isLoading,
    nameOf: (id: string) => q.data?.find((a) => a.appid === id)?.appname ?? id,
  };
}

/**
 * The population apps an institution has, as options: what a person of it may belong to (a
 * maternity hospital registers mothers, never students). The custom-report app is no population.
 */
export function useInstitutionApps(musercode: string | undefined, enabled = true) {
  const q = useAction(
    'as.m.app.muser.getMUserAppList',
    { musercode: musercode ?? '' },
    { staleTime: 60_000, enabled: enabled && !!musercode },
  );
  const apps = (q.data ?? []).filter((a) => a.appid !== PopulationApp.customReport);
  return { options: apps.map((a) => ({ value: a.appid, label: a.appname })), loading: q.isLoading && !!musercode, error: q.error };
}

/** The stages the caller may use, of one app or all, as options. */
export function useStages(appid?: string) {
  const input = { appid: appid || undefined, page: 1, pageSize: 200 };
  const q = useAction('as.m.app.exam.getExamStageList', input, { staleTime: 60_000 });
  return { options: (q.data?.rows ?? []).map((s) => ({ value: s.stagecode, label: s.stagename })), loading: q.isLoading };
}

/** What `noOptions` takes of the read behind a picker's options (a react-query result has it). */
interface OptionsRead {
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * What a picker's dropdown says when it has no option: a spinner while the options are read, the
 * failure with a retry when the read failed, else `empty`. Neither a read under way nor a failed
 * one may say "no plans" or "no person": staff would believe there is none to choose.
 */
export function noOptions(read: OptionsRead, empty: ReactNode): ReactNode {
  if (read.isFetching) return <Spin size="small" style={{ display: 'block', padding: 8 }} />;
  return read.error ? <RetryLine onRetry={() => void read.refetch()} testId="options-failed" /> : empty;
}
