/**
 * The dialogs of a case: add a follow-up record, close with an outcome and a note, assign.
 * Their rules come from the actions' zod inputs (FormDialog, Field).
 */
import { DatePicker, Input, Select, Alert } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { warningActions, type ActionInput, type CaseRow } from '@xinli/contract';
import { call } from '../../api';
import { useSession } from '../../auth';
import { Field, FormDialog } from '../../components/form';
import { LEVELS, useLevelLabel } from '../../components/levels';
import { useStaff, useWarningOptions } from './warning-ui';

/** The lists and reads a change of a case refreshes. */
export const CASE_KEYS = [
  'as.m.warning.getCasePageList',
  'as.m.warning.getCase',
  'as.m.warning.getFollowUpPageList',
  'as.m.warning.getNotificationCount',
  'as.m.warning.getNotificationList',
] as const;

const DAY = 'YYYY-MM-DD';
/** A calendar-date field edited with a DatePicker (the form value stays 'YYYY-MM-DD'). */
const dateProps = {
  getValueProps: (v: string | undefined) => ({ value: v ? dayjs(v) : undefined }),
  normalize: (d: Dayjs | null) => (d ? d.format(DAY) : ''),
};

type FollowUpForm = Omit<ActionInput<'as.m.warning.insertFollowUp'>, 'caseid'>;

/** A follow-up record: date (today), way, what was done, risk now, next date (not before this one). */
export function FollowUpDialog({ open, caseid, onClose }: { open: boolean; caseid: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { ways } = useWarningOptions();
  const levelLabel = useLevelLabel();
  return (
    <FormDialog<FollowUpForm>
      open={open}
      action={warningActions['as.m.warning.insertFollowUp']}
      resource="registration.followUp"
      values={{ followdate: dayjs().format(DAY), way: 'phone', nextdate: '' }}
      onSubmit={(v) => call('as.m.warning.insertFollowUp', { caseid, ...v, nextdate: v.nextdate || undefined })}
      invalidates={[...CASE_KEYS]}
      onClose={onClose}
      data-testid="followup-dialog"
    >
      <Field name="followdate" {...dateProps}>
        <DatePicker style={{ width: 200 }} disabledDate={(d) => d.isAfter(dayjs(), 'day')} data-testid="followup-date" />
      </Field>
      <Field name="way">
        <Select options={ways} style={{ width: 200 }} data-testid="followup-way" />
      </Field>
      <Field name="content">
        <Input.TextArea rows={4} showCount data-testid="followup-content" />
      </Field>
      <Field name="risk">
        <Select options={LEVELS.map((l) => ({ value: l, label: levelLabel(l) }))} style={{ width: 200 }} data-testid="followup-risk" />
      </Field>
      <Field
        name="nextdate"
        {...dateProps}
        dependencies={['followdate']}
        extra={t('registration.followUp.nextdateHelp')}
        rules={[
          ({ getFieldValue }) => ({
            validator: async (_, v: string) => {
              const from = getFieldValue('followdate') as string | undefined;
              if (v && from && v < from) throw new Error(t('registration.followUp.nextdateBefore'));
            },
          }),
        ]}
      >
        <DatePicker style={{ width: 200 }} data-testid="followup-next" />
      </Field>
    </FormDialog>
  );
}

type CloseForm = Omit<ActionInput<'as.m.warning.closeCase'>, 'caseid'>;

/** Closing needs an outcome and a note (the server refuses without the warning code anyway). */
export function CloseCaseDialog({ open, caseid, onClose }: { open: boolean; caseid: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { outcomes } = useWarningOptions();
  return (
    <FormDialog<CloseForm>
      open={open}
      title={t('earlyWarning.case.closeTitle')}
      action={warningActions['as.m.warning.closeCase']}
      resource="earlyWarning.case"
      onSubmit={(v) => call('as.m.warning.closeCase', { caseid, ...v })}
      invalidates={[...CASE_KEYS]}
      success={t('earlyWarning.case.done')}
      onClose={onClose}
      data-testid="close-dialog"
    >
      <Alert type="info" showIcon title={t('earlyWarning.case.closeHint')} style={{ marginBottom: 16 }} />
      <Field name="outcome">
        <Select options={outcomes} style={{ width: 220 }} data-testid="close-outcome" />
      </Field>
      <Field name="note">
        <Input.TextArea rows={4} showCount data-testid="close-note" />
      </Field>
    </FormDialog>
  );
}

type AssignForm = Omit<ActionInput<'as.m.warning.assignCase'>, 'caseid'>;

/** Assign to a staff user of the case's institution, to oneself, or to nobody. */
export function AssignDialog({ open, record, onClose }: { open: boolean; record: CaseRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { session } = useSession();
  const staff = useStaff(record.musercode);
  const me = session?.user.userid;
  const options = [
    { value: '', label: t('earlyWarning.case.unassigned') },
    ...(me && !staff.options.some((o) => o.value === me) ? [{ value: me, label: t('earlyWarning.case.assignMe') }] : []),
    ...staff.options,
  ];
  return (
    <FormDialog<AssignForm>
      open={open}
      title={t('earlyWarning.case.assignTitle')}
      action={warningActions['as.m.warning.assignCase']}
      resource="earlyWarning.case"
      values={{ userid: record.assignee }}
      onSubmit={(v) => call('as.m.warning.assignCase', { caseid: record.caseid, ...v })}
      invalidates={[...CASE_KEYS]}
      onClose={onClose}
      data-testid="assign-dialog"
    >
      {!staff.listed && <Alert type="info" showIcon title={t('earlyWarning.case.assignNoList')} style={{ marginBottom: 16 }} />}
      <Field name="userid">
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          options={options}
          loading={staff.loading}
          style={{ width: 260 }}
          data-testid="assign-user"
        />
      </Field>
      <Field name="note">
        <Input.TextArea rows={2} />
      </Field>
    </FormDialog>
  );
}
