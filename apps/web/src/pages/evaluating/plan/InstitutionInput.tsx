import { AutoComplete, Select } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../../components/query';
import { useSession } from '../../../auth';

interface Props<V> {
  value?: V;
  onChange?: (value: V) => void;
  placeholder?: string;
  style?: CSSProperties;
}

/**
 * Institutions known to the caller: its own account and those its plans were authorised to.
 * The contract has no institution list for plan staff yet, so any other account code can be
 * typed too (the server checks that it is in scope).
 */
function useKnownInstitutions() {
  const { t } = useTranslation();
  const { session } = useSession();
  const known = useAction('as.m.exam.plan.getPlanAuthorizeList', { page: 1, pageSize: 200 }, { staleTime: 60_000 });
  const names = new Map<string, string>();
  if (session) names.set(session.user.musercode, session.user.insname);
  for (const r of known.data?.rows ?? []) names.set(r.musercode, r.insname);
  return [...names].map(([value, name]) => ({ value, label: t('common.bracketed', { text: name, detail: value }) }));
}

/** Several institutions (codes as tags). */
export function InstitutionsInput({ value, onChange, placeholder, style }: Props<string[]>) {
  const { t } = useTranslation();
  const options = useKnownInstitutions();
  return (
    <Select
      mode="tags"
      value={value}
      onChange={onChange}
      placeholder={placeholder}
      style={style}
      allowClear
      tokenSeparators={[',', '，', ' ']}
      notFoundContent={t('evaluating.plans.institutionHint')}
      options={options}
      data-testid="plan-institutions"
    />
  );
}

/** One institution: pick a known one or type its account code. */
export function InstitutionInput({ value, onChange, placeholder, style }: Props<string>) {
  const options = useKnownInstitutions();
  return (
    <AutoComplete
      value={value}
      onChange={(v) => onChange?.(String(v ?? '').trim())}
      placeholder={placeholder}
      style={style}
      allowClear
      options={options}
      showSearch={{
        filterOption: (input, option) =>
          String(option?.label ?? '')
            .toLowerCase()
            .includes(input.toLowerCase()),
      }}
      data-testid="plan-institution"
    />
  );
}
