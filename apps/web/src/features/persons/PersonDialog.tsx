import { useEffect } from 'react';
import { Alert, DatePicker, Divider, Form, Input, Radio, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { personActions, Gender, type ActionInput, type CuserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutionApps, useInstitutions } from '../../components/pickers';
import ArchiveFields from '../../components/archive-form/ArchiveFields';
import { answersToValues, valuesToAnswers, type ArchiveField, type ArchiveValues } from '../../components/archive-form/values';
import { useEnumOptions } from '../../lib/options';
import { useT } from '../../i18n/useT';

/** The input's fields, the archive as the form's answers; no gender until one is chosen (none is assumed). */
type PersonForm = Omit<ActionInput<'as.m.cuser.insertCUser'>, 'gender' | 'archive'> & { gender?: '01' | '02'; archive?: ArchiveValues };

const masked = (v: string | undefined) => !!v && v.includes('*');

/** The archive columns of an app (its user-archive form's questions). */
export function useArchiveHead(appid: string | undefined) {
  return useAction('as.m.cuser.getCUserArchiveHeadList', { appid: appid ?? '' }, { enabled: !!appid, staleTime: 60_000 });
}

/**
 * Register or edit a person: institution (for a provider), population, name, gender, birth date,
 * phone and ID number, and the answers of the app's archive form. A phone or ID number the caller
 * only sees masked is left as it is unless a new one is typed.
 */
export default function PersonDialog({
  open,
  person,
  appid: fixedApp,
  onClose,
  onSaved,
}: {
  open: boolean;
  person: CuserRow | null;
  appid?: string;
  onClose: () => void;
  onSaved?: (cusercode: string) => void;
}) {
  const { t } = useTranslation();
  const k = useT('archives.person');
  const [form] = Form.useForm<PersonForm>();
  const genders = useEnumOptions(Gender);
  const institutions = useInstitutions();
  const chosenInstitution = (Form.useWatch('musercode', form) as string | undefined) ?? institutions.own;
  // Only the populations the institution serves: a maternity hospital registers no students.
  const apps = useInstitutionApps(chosenInstitution, open && !fixedApp && !person);
  const chosenApp = Form.useWatch('appid', form);
  const appid = person?.appid ?? fixedApp ?? chosenApp;
  const head = useArchiveHead(open ? appid : undefined);
  const fields: ArchiveField[] = head.data?.columns ?? [];
  const full = useAction('as.m.assess.getCUser', { cusercode: person?.cusercode ?? '' }, { enabled: open && !!person });

  // The edit form is the person read afresh, with the archive answers once the app's columns are here;
  // a phone or ID number the caller only sees masked starts empty (typing one replaces it).
  const record =
    full.data && head.data
      ? {
          ...full.data,
          phonenumber: masked(full.data.phonenumber) ? '' : full.data.phonenumber,
          idcard: masked(full.data.idcard) ? '' : full.data.idcard,
          archive: answersToValues(head.data.columns, full.data.archive),
        }
      : undefined;

  // Another institution may not serve the chosen population; one that serves one population has it chosen.
  useEffect(() => {
    if (!open || person || fixedApp || apps.loading) return;
    const values = apps.options.map((o) => o.value);
    const current = form.getFieldValue('appid') as string | undefined;
    if (current && !values.includes(current)) form.setFieldValue('appid', undefined);
    if (!form.getFieldValue('appid') && values.length === 1) form.setFieldValue('appid', values[0]);
  }, [open, person, fixedApp, apps.loading, apps.options, form]);

  const submit = async ({ archive, ...v }: PersonForm) => {
    const answers = valuesToAnswers(fields, archive ?? {});
    // The form's rules require a gender (the contract's).
    const gender = v.gender!;
    if (person) {
      // An empty phone or ID over a masked one means "unchanged"; a typed one replaces it.
      const keep = (typed: string | undefined, old: string | undefined) => (!typed && masked(old) ? undefined : (typed ?? ''));
      await call('as.m.cuser.updateCUser', {
        cusercode: person.cusercode,
        ...v,
        gender,
        phonenumber: keep(v.phonenumber, full.data?.phonenumber),
        idcard: keep(v.idcard, full.data?.idcard),
        archive: answers,
      });
      return person.cusercode;
    }
    const r = await call('as.m.cuser.insertCUser', { ...v, musercode: v.musercode || undefined, appid: appid!, gender, archive: answers });
    return r.cusercode;
  };

  const hint = (v: string | undefined) => (masked(v) ? k('maskedKeep', { value: v }) : undefined);
  return (
    <FormDialog<PersonForm>
      open={open}
      title={person ? k('editTitle', { name: person.realname }) : k('addTitle')}
      action={personActions[person ? 'as.m.cuser.updateCUser' : 'as.m.cuser.insertCUser']}
      resource="archives.person"
      form={form}
      width={720}
      labelWidth={130}
      record={person ? record : null}
      defaults={{ appid: fixedApp, musercode: institutions.own, archive: {} }}
      load={person ? { loading: !record && !full.error && !head.error, error: full.error ?? head.error, retry: () => void full.refetch() } : undefined}
      onSubmit={submit}
      onSaved={(code) => {
        onSaved?.(code as string);
        onClose();
      }}
      invalidates={[
        'as.m.cuser.getCUserPageList',
        'as.m.cuser.getCUserArchivePageList',
        'as.m.cuser.getCUserArchive',
        'as.m.assess.getCUser',
      ]}
      onClose={onClose}
      data-testid="person-dialog"
    >
      {!person && institutions.many && (
        <Field name="musercode" label={t('common.institution')}>
          <InstitutionSelect />
        </Field>
      )}
      {!person && !fixedApp && (
        <Field name="appid" label={k('appid')}>
          <Select options={apps.options} loading={apps.loading} data-testid="person-app" />
        </Field>
      )}
      <Field name="realname">
        <Input data-testid="person-realname" />
      </Field>
      <Field name="gender">
        <Radio.Group options={genders} data-testid="person-gender" />
      </Field>
      <Field
        name="birthdate"
        getValueProps={(v: string | undefined) => ({ value: v ? dayjs(v) : undefined })}
        normalize={(d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : '')}
      >
        <DatePicker style={{ width: 200 }} disabledDate={(d) => d.isAfter(dayjs())} />
      </Field>
      <Field name="phonenumber" extra={hint(full.data?.phonenumber)}>
        <Input placeholder={masked(full.data?.phonenumber) ? full.data?.phonenumber : undefined} data-testid="person-phone" />
      </Field>
      <Field name="idcard" extra={hint(full.data?.idcard)}>
        <Input placeholder={masked(full.data?.idcard) ? full.data?.idcard : undefined} />
      </Field>
      <Divider titlePlacement="start" plain>
        {head.data ? `${k('archive')} · ${head.data.formname}` : k('archive')}
      </Divider>
      {!appid ? (
        <Alert type="info" showIcon title={k('chooseAppFirst')} />
      ) : head.isLoading || (person && full.isLoading) ? (
        <Spin style={{ display: 'block', padding: 16 }} />
      ) : fields.length === 0 ? (
        <Alert type="info" showIcon title={t('archives.form.noForm')} />
      ) : (
        <ArchiveFields fields={fields} />
      )}
    </FormDialog>
  );
}
