import { Col, Input, type ColProps } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '@xinli/contract';
import { call } from '../../api';
import { hashPassword, isValidNewPassword } from '../../auth';
import { Field, FormDialog } from '../../components/form';

/** SPEC §5 password format (the wire carries only its MD5, so the rule lives here). */
export const newPasswordRules = (t: TFunction): Rule[] => [
  { required: true, message: t('shell.enterNewPassword') },
  {
    validator: async (_, value: string) =>
      !value || isValidNewPassword(value) ? undefined : Promise.reject(new Error(t('shell.passwordFormatIncorrect'))),
  },
];

/** The confirmation must equal the `password` field. */
export const confirmRules = (t: TFunction): Rule[] => [
  { required: true, message: t('common.enter', { field: t('organization.user.confirmPassword') }) },
  ({ getFieldValue }) => ({
    validator: async (_, value: string) =>
      !value || value === getFieldValue('password') ? undefined : Promise.reject(new Error(t('organization.user.passwordMismatch'))),
  }),
];

/**
 * The initial password of a new account and its confirmation (SPEC §5 rule, each in the column
 * its dialog gives it); the dialog sends the password as uppercase MD5.
 */
export function NewPasswordFields({ confirmLabel, testId, cols }: { confirmLabel: string; testId: string; cols: [ColProps, ColProps] }) {
  const { t } = useTranslation();
  return (
    <>
      <Col {...cols[0]}>
        <Field name="password" tooltip={t('shell.passwordRule')} required rules={newPasswordRules(t)}>
          <Input.Password maxLength={32} autoComplete="new-password" data-testid={`${testId}-password`} />
        </Field>
      </Col>
      <Col {...cols[1]}>
        <Field name="confirm" label={confirmLabel} dependencies={['password']} required rules={confirmRules(t)}>
          <Input.Password maxLength={32} autoComplete="new-password" data-testid={`${testId}-confirm`} />
        </Field>
      </Col>
    </>
  );
}

export interface ResetPwdDialogProps {
  user: UserRow | null;
  onClose: () => void;
}

/** Sets a staff user's password (SPEC §5 format, sent as uppercase MD5); the server ends its sessions. */
export default function ResetPwdDialog({ user, onClose }: ResetPwdDialogProps) {
  const { t } = useTranslation();
  return (
    <FormDialog<{ password: string; confirm: string }>
      open={!!user}
      title={t('organization.user.resetPwdTitle', { name: user?.sysusername ?? '' })}
      resource="organization.user"
      width={460}
      layout="vertical"
      success={t('organization.user.resetPwdDone')}
      onSubmit={({ password }) => call('as.m.system.user.resetPwd', { userid: user!.userid, pwd: hashPassword(password) })}
      onClose={onClose}
      formProps={{ 'data-testid': 'reset-pwd-form' } as object}
    >
      <Field name="password" extra={t('shell.passwordRule')} required rules={newPasswordRules(t)}>
        <Input.Password maxLength={32} autoComplete="new-password" placeholder={t('shell.enterNewPassword')} />
      </Field>
      <Field name="confirm" label={t('organization.user.confirmPassword')} dependencies={['password']} required rules={confirmRules(t)}>
        <Input.Password maxLength={32} autoComplete="new-password" />
      </Field>
    </FormDialog>
  );
}
