import { useState } from 'react';
import { Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { registrationActions } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { noOptions } from '../../components/pickers';
import { FormDialog, Field } from '../../components/form';
import { Waiting } from '../../components/list';
import ArchiveFields from '../../components/archive-form/ArchiveFields';
import { valuesToAnswers, type ArchiveValues } from '../../components/archive-form/values';
import PersonPicker from './PersonPicker';
import { fieldsOf } from './questions';

const LIST = 'as.m.registration.getRegistrationPage';

interface Values {
  cusercode: string;
  formcode: string;
  answers?: ArchiveValues;
}

/** Staff fill in a registration for a person in scope: the person, a registration form (type 03), its questions. */
export default function FillInDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [formcode, setFormcode] = useState<string | undefined>();
  const forms = useAction('as.m.registration.getRegistrationForms', {}, { enabled: open });
  const chosen = formcode ?? forms.data?.[0]?.formcode;
  const detail = useAction('as.m.registration.getRegistrationForm', { formcode: chosen ?? '' }, { enabled: open && !!chosen });
  const fields = detail.data ? fieldsOf(detail.data) : [];
  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t('registration.registration.fillTitle')}
      action={registrationActions['as.m.registration.insertRegistration']}
      resource="registration.registration"
      values={chosen ? { formcode: chosen } : {}}
      width={640}
      layout="vertical"
      onSubmit={(v) => call('as.m.registration.insertRegistration', { cusercode: v.cusercode, formcode: chosen!, answers: valuesToAnswers(fields, v.answers ?? {}) })}
      invalidates={[LIST]}
      onClose={() => {
        setFormcode(undefined);
        onClose();
      }}
      okDisabled={!detail.data}
      data-testid="registration-fill"
    >
      <Field name="cusercode" required>
        <PersonPicker data-testid="registration-person" />
      </Field>
      <Field name="formcode" required>
        <Select
          loading={forms.isLoading}
          options={(forms.data ?? []).map((f) => ({ value: f.formcode, label: f.formname }))}
          onChange={(v: string) => setFormcode(v)}
          notFoundContent={noOptions(forms, t('registration.registration.noForm'))}
        />
      </Field>
      {!chosen ? null : detail.data ? <ArchiveFields fields={fields} name="answers" /> : <Waiting query={detail} />}
    </FormDialog>
  );
}
