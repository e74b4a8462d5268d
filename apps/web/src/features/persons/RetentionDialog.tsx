import { useState } from 'react';
import { Button, Form, InputNumber } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { personActions, RETENTION_MAX_MONTHS, type PersonRetention } from '@xinli/contract';
import { call } from '../../api';
import { Can } from '../../components/access';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useT } from '../../i18n/useT';
import { useTranslation } from 'react-i18next';

/**
 * An institution's retention period (issue 30 §5): months without activity after which a daily
 * job anonymises a person; 0 is off. A provider first picks which of its institutions.
 */
function RetentionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('archives.rights');
  const institutions = useInstitutions();
  const [form] = Form.useForm<PersonRetention>();
  const [musercode, setMusercode] = useState<string | undefined>(undefined);
  const input = musercode ? { musercode } : {};
  const q = useAction('as.m.cuser.getRetention', input, { enabled: open });
  return (
    <FormDialog<PersonRetention>
      open={open}
      form={form}
      title={k('retentionTitle')}
      action={personActions['as.m.cuser.updateRetention']}
      resource="archives.rights"
      record={q.data}
      load={{ error: q.error, loading: q.isLoading, retry: () => void q.refetch() }}
      onSubmit={(v) => call('as.m.cuser.updateRetention', { ...input, ...v })}
      invalidates={['as.m.cuser.getRetention']}
      onClose={onClose}
      labelWidth={120}
      width={560}
      data-testid="retention-dialog"
    >
      {institutions.many && (
        <Form.Item label={t('common.institution')}>
          <InstitutionSelect value={musercode ?? institutions.own} onChange={setMusercode} style={{ width: 260 }} />
        </Form.Item>
      )}
      <Field name="months" extra={k('retentionHelp')}>
        <InputNumber min={0} max={RETENTION_MAX_MONTHS} precision={0} style={{ width: 160 }} data-testid="retention-months" />
      </Field>
    </FormDialog>
  );
}

/** The list toolbar's button opening the retention setting (for holders of all archives). */
export function RetentionButton() {
  const k = useT('archives.rights');
  const [open, setOpen] = useState(false);
  return (
    <Can action="as.m.cuser.updateRetention">
      <Button icon={<ClockCircleOutlined />} onClick={() => setOpen(true)} data-testid="retention-open">
        {k('retention')}
      </Button>
      <RetentionDialog open={open} onClose={() => setOpen(false)} />
    </Can>
  );
}
