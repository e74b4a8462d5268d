import { Alert, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { warningActions, type ActionInput } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { CASE_KEYS } from './CaseDialogs';
import { useWarningOptions } from './warning-ui';

type FlagForm = Omit<ActionInput<'as.m.warning.flagPerson'>, 'cusercode'>;

/**
 * A manual warning on a person (from the case drawer or the archive page): its level and the
 * reason; it joins the person's open case or opens one. `onFlagged` gets the case.
 */
export default function FlagDialog({
  person,
  onClose,
  onFlagged,
}: {
  person: { cusercode: string; realname: string } | null;
  onClose: () => void;
  onFlagged?: (caseid: string) => void;
}) {
  const { t } = useTranslation();
  const { levels } = useWarningOptions();
  return (
    <FormDialog<FlagForm>
      open={!!person}
      title={t('earlyWarning.case.flagTitle', { name: person?.realname ?? '' })}
      action={warningActions['as.m.warning.flagPerson']}
      resource="earlyWarning.case"
      values={{ level: 'attention' }}
      onSubmit={(v) => call('as.m.warning.flagPerson', { cusercode: person!.cusercode, ...v })}
      invalidates={[...CASE_KEYS]}
      success={t('earlyWarning.case.flagged')}
      onSaved={(result) => {
        onClose();
        onFlagged?.((result as { caseid: string }).caseid);
      }}
      onClose={onClose}
      data-testid="flag-dialog"
    >
      <Alert type="info" showIcon title={t('earlyWarning.case.flagHint')} style={{ marginBottom: 16 }} />
      <Field name="level">
        <Radio.Group options={levels} optionType="button" data-testid="flag-level" />
      </Field>
      <Field name="note" label={t('earlyWarning.case.reason')}>
        <Input.TextArea rows={3} showCount data-testid="flag-note" />
      </Field>
    </FormDialog>
  );
}
