/**
 * The indicator filter of the report lists: a form's indicator (only forms and indicators the
 * reports under the filter actually used, from getQuotaFilterConditions) and the levels it
 * reached, each level with its report count. It applies as soon as levels are chosen.
 */
import { Cascader, Form, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ActionInput } from '@xinli/contract';
import { noOptions } from '../../components/pickers';
import { useAction } from '../../components/query';
import { levelColour, useLevelLabel } from '../../components/levels';
import type { QuotaPick } from '../../features/reports/report-filter';

type Scope = ActionInput<'as.m.exam.getQuotaFilterConditions'>;

export function useQuotaForms(scope: Scope) {
  const q = useAction('as.m.exam.getQuotaFilterConditions', scope, { staleTime: 30_000 });
  return { forms: q.data ?? [], read: q };
}

type Props = ReturnType<typeof useQuotaForms> & { value: QuotaPick | null; onChange: (q: QuotaPick | null) => void };

export default function QuotaPicker({ forms, read, value, onChange }: Props) {
  const { t } = useTranslation();
  const levelLabel = useLevelLabel();
  const quota = value ? forms.find((x) => x.formcode === value.formcode)?.quotas.find((x) => x.quotacode === value.quotacode) : undefined;
  const options = forms
    .filter((x) => x.quotas.length > 0)
    .map((x) => ({ value: x.formcode, label: x.formname, children: x.quotas.map((q) => ({ value: q.quotacode, label: q.name })) }));
  return (
    <Form.Item label={t('empower.report.quota')}>
      <Space.Compact>
        <Cascader
          options={options}
          value={value ? [value.formcode, value.quotacode] : undefined}
          onChange={(path) => onChange(path && path.length === 2 ? { formcode: String(path[0]), quotacode: String(path[1]), levels: [] } : null)}
          placeholder={t('empower.report.quotaPlaceholder')}
          style={{ width: 220 }}
          allowClear
          showSearch
          notFoundContent={noOptions(read, t('empower.report.noQuotas'))}
          data-testid="report-quota"
        />
        <Select<number[]>
          mode="multiple"
          disabled={!value}
          value={value?.levels ?? []}
          onChange={(levels) => value && onChange({ ...value, levels })}
          placeholder={t('empower.report.quotaLevels')}
          style={{ width: 200 }}
          maxTagCount="responsive"
          allowClear
          options={(quota?.levels ?? []).map((l) => ({
            value: l.level,
            label: (
              <span>
                <span style={{ display: 'inline-block', width: 8, height: 8, borderRadius: 4, marginInlineEnd: 6, background: l.colour || levelColour(l.level) }} />
                {l.label || levelLabel(l.level)} ({l.reports})
              </span>
            ),
          }))}
          data-testid="report-quota-levels"
        />
      </Space.Compact>
    </Form.Item>
  );
}
