import { useState } from 'react';
import { Select, type SelectProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAction } from '../../components/query';
import { noOptions } from '../../components/pickers';

/**
 * A person in scope chosen by typing part of the name (as.m.registration.getPersonOptions, up to
 * 20 matches), optionally of one institution: filling in for a person and matching a registration.
 */
export default function PersonPicker({ musercode, ...props }: SelectProps<string> & { musercode?: string }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const input = { realname: search.trim(), ...(musercode ? { musercode } : {}) };
  const q = useAction('as.m.registration.getPersonOptions', input, { staleTime: 30_000 });
  const options = (q.data ?? []).map((p) => ({
    value: p.cusercode,
    label: `${p.realname}${p.birthdate ? ` · ${p.birthdate}` : ''}${musercode ? '' : ` · ${p.insname}`}`,
  }));
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={q.isFetching}
      options={options}
      placeholder={t('registration.registration.personSearch')}
      notFoundContent={noOptions(q, t('registration.registration.noPerson'))}
      {...props}
    />
  );
}
