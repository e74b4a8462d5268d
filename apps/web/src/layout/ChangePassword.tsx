import { App as AntApp, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '@xinli/contract';
import { ApiError, call, openReloginDialog } from '../api';
import { hashPassword, isValidNewPassword } from '../auth/password';
import { useSession } from '../auth/session';

/** SPEC §4: sign-out follows a successful change after 2 seconds. */
export const LOGOUT_AFTER_CHANGE_MS = 2000;

interface Fields {
  oldpwd: string;
  pwd: string;
  again: string;
}

/**
 * SPEC §5 password prompt: title 'hint', prompt 'please enter new password', the format rule;
 * cancel says 'cancelled input'; success says 'modified successfully' then signs out. The
 * current password and a second entry of the new one sit in the same dialog (issue 28): a typo
 * would otherwise sign the user out with a password they do not know.
 */
export default function ChangePassword({ open, musercode, onClose }: { open: boolean; musercode: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const { signOut } = useSession();
  const [form] = Form.useForm<Fields>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const { oldpwd, pwd } = await form.validateFields();
    setBusy(true);
    try {
      await call('as.m.user.updateMUser', { musercode, oldpwd: hashPassword(oldpwd), pwd: hashPassword(pwd) }, { silent: true });
      void message.success(t('shell.modifiedSuccessfully'));
      onClose();
      setTimeout(() => void signOut(), LOGOUT_AFTER_CHANGE_MS);
    } catch (err) {
      // An ended session asks to sign in again, as every other call does.
      if (err instanceof ApiError && err.code === ErrorCode.identityInvalid) {
        onClose();
        openReloginDialog();
        return;
      }
      // The answer shows under the field it concerns; the dialog stays open to try again.
      const wrongCurrent = err instanceof ApiError && err.code === ErrorCode.validation;
      form.setFields([
        wrongCurrent
          ? { name: 'oldpwd', errors: [t('shell.currentPasswordWrong')] }
          : { name: 'pwd', errors: [err instanceof Error ? err.message : String(err)] },
      ]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('shell.hint')}
      okText={t('shell.confirm')}
      cancelText={t('shell.cancel')}
      confirmLoading={busy}
      onOk={submit}
      onCancel={() => {
        onClose();
        void message.info(t('shell.cancelledInput'));
      }}
      afterClose={() => form.resetFields()}
      destroyOnHidden
      data-testid="change-password"
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="oldpwd"
          label={t('shell.currentPassword')}
          validateTrigger="onSubmit"
          rules={[{ required: true, message: t('shell.currentPasswordRequired') }]}
        >
          <Input.Password autoFocus autoComplete="current-password" maxLength={64} data-testid="current-password" />
        </Form.Item>
        <Form.Item
          name="pwd"
          label={t('shell.enterNewPassword')}
          extra={t('shell.passwordRule')}
          validateTrigger="onSubmit"
          rules={[{ validator: (_r, v: string | undefined) => (v && isValidNewPassword(v) ? Promise.resolve() : Promise.reject(new Error(t('shell.passwordFormatIncorrect')))) }]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} data-testid="new-password" />
        </Form.Item>
        <Form.Item
          name="again"
          label={t('shell.confirmNewPassword')}
          dependencies={['pwd']}
          validateTrigger="onSubmit"
          rules={[
            ({ getFieldValue }) => ({
              validator: (_r, v: string | undefined) =>
                v === getFieldValue('pwd') ? Promise.resolve() : Promise.reject(new Error(t('shell.passwordsDiffer'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} data-testid="confirm-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
