import { useState } from 'react';
import { Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { warningActions, type WarningSettings } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useT } from '../../i18n/useT';

const FIELDS = ['worsenpoints', 'worsenlevels', 'misseddays', 'escalateminutes'] as const;

/**
 * An institution's warning triggers (worsening by points or levels, missed assessments) and the
 * escalation time of critical cases. A provider first picks which of its institutions.
 */
export default function WarningSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('earlyWarning.settings');
  const institutions = useInstitutions();
  const [form] = Form.useForm<WarningSettings>();
  const [musercode, setMusercode] = useState<string | undefined>(undefined);
  const input = musercode ? { musercode } : {};
  const q = useAction('as.m.warning.getWarningSettings', input, { enabled: open });

  return (
    <FormDialog<WarningSettings>
      open={open}
      form={form}
      title={t('earlyWarning.settings.title')}
      action={warningActions['as.m.warning.updateWarningSettings']}
      resource="earlyWarning.settings"
      // The settings read (again after another institution is picked).
      values={q.data && (Object.fromEntries(FIELDS.map((f) => [f, q.data[f]])) as WarningSettings)}
      load={{ error: q.error, loading: q.isLoading, retry: () => void q.refetch() }}
      header={
        institutions.many && (
          <Form.Item label={t('common.institution')}>
            <InstitutionSelect value={musercode ?? institutions.own} onChange={setMusercode} style={{ width: 260 }} />
          </Form.Item>
        )
      }
      onSubmit={(v) => call('as.m.warning.updateWarningSettings', { ...input, ...v })}
      invalidates={['as.m.warning.getWarningSettings']}
      onClose={onClose}
      labelWidth={170}
      width={640}
      data-testid="settings-dialog"
    >
      {FIELDS.map((name) => (
        <Field key={name} name={name} extra={k(`${name}Help`)}>
          <InputNumber min={0} style={{ width: 160 }} data-testid={`settings-${name}`} />
        </Field>
      ))}
    </FormDialog>
  );
}
