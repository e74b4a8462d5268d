import { useState } from 'react';
import { Form, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useLocalText } from '../../lib/options';
import { useT } from '../../i18n/useT';

type Choices = Record<string, string>;

/**
 * An institution's scoring conventions (issue 31 §1): for each form offering several (SDS/SAS
 * cut-offs and whether the ×1.25 conversion is truncated or rounded), the one its new reports are
 * scored with. Each report keeps and prints the convention it was scored with.
 */
export default function ConventionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('evaluating.library');
  const text = useLocalText();
  const institutions = useInstitutions();
  const [form] = Form.useForm<Choices>();
  const [musercode, setMusercode] = useState<string | undefined>(undefined);
  const input = musercode ? { musercode } : {};
  const q = useAction('as.m.assess.forms.getConventions', input, { enabled: open });
  const forms = q.data?.forms ?? [];

  const save = async (v: Choices) => {
    // Only the choices that changed are sent (each is audited with the one it replaces).
    for (const f of forms) if (v[f.formcode] && v[f.formcode] !== f.code) await call('as.m.assess.forms.setConvention', { ...input, formcode: f.formcode, code: v[f.formcode] });
    return null;
  };

  return (
    <FormDialog<Choices>
      open={open}
      form={form}
      title={k('conventionsTitle')}
      values={q.data && Object.fromEntries(q.data.forms.map((f) => [f.formcode, f.code]))}
      load={{ error: q.error, loading: q.isLoading, retry: () => void q.refetch() }}
      header={
        <>
          <Typography.Paragraph type="secondary">{k('conventionsHint')}</Typography.Paragraph>
          {institutions.many && (
            <Form.Item label={t('common.institution')}>
              <InstitutionSelect value={musercode ?? institutions.own} onChange={setMusercode} style={{ width: 260 }} />
            </Form.Item>
          )}
        </>
      }
      onSubmit={save}
      invalidates={['as.m.assess.forms.getConventions']}
      onClose={onClose}
      labelWidth={200}
      width={760}
      data-testid="conventions-dialog"
    >
      {forms.length === 0 && <Typography.Text type="secondary">{k('conventionsNone')}</Typography.Text>}
      {forms.map((f) => (
        <Form.Item
          key={f.formcode}
          name={f.formcode}
          label={text(f.formname)}
          extra={<ChosenSource formcode={f.formcode} conventions={f.conventions} fallback={f.code} />}
        >
          <Select
            data-testid={`convention-${f.formcode}`}
            options={f.conventions.map((c, i) => ({ value: c.code, label: i === 0 ? `${text(c.name)}${k('conventionDefault')}` : text(c.name) }))}
          />
        </Form.Item>
      ))}
    </FormDialog>
  );
}

/** The source of the convention currently chosen in the select (follows the choice as it changes). */
function ChosenSource({ formcode, conventions, fallback }: { formcode: string; conventions: { code: string; source: string }[]; fallback: string }) {
  const k = useT('evaluating.library');
  const chosen = Form.useWatch(formcode) as string | undefined;
  const source = conventions.find((c) => c.code === (chosen ?? fallback))?.source ?? '';
  return source ? <>{k('conventionSource', { source })}</> : null;
}
