import { Typography } from 'antd';
import { registrationActions, type RegistrationRow } from '@xinli/contract';
import { call } from '../../api';
import { FormDialog, Field } from '../../components/form';
import PersonPicker from './PersonPicker';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.registration.getRegistrationPage';

/**
 * Turn a registration into a case (warnings domain). A registration from the respondent page has
 * no person yet: staff choose the person of its institution it is about.
 */
export default function CaseDialog({ row, onClose }: { row: RegistrationRow | null; onClose: () => void }) {
  const k = useT('registration.registration');
  const needsPerson = !!row && !row.cusercode;
  return (
    <FormDialog<{ cusercode?: string }>
      open={!!row}
      title={k('caseTitle')}
      action={registrationActions['as.m.registration.turnIntoCase']}
      resource="registration.registration"
      labelWidth={120}
      onSubmit={(v) => call('as.m.registration.turnIntoCase', { regid: row!.regid, ...(needsPerson ? { cusercode: v.cusercode } : {}) })}
      success={k('caseDone')}
      invalidates={[LIST, 'as.m.registration.getRegistration']}
      onClose={onClose}
      data-testid="registration-case"
    >
      <Typography.Paragraph>{row ? k(needsPerson ? 'caseMatch' : 'caseConfirm', { name: row.realname }) : null}</Typography.Paragraph>
      {needsPerson && (
        <Field name="cusercode" required>
          <PersonPicker musercode={row!.musercode} data-testid="registration-case-person" />
        </Field>
      )}
    </FormDialog>
  );
}
