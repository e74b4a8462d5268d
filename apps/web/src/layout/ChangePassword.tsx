import { App as AntApp, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../api';
import { hashPassword, isValidNewPassword } from '../auth/password';
import { useSession } from '../auth/session';

/** SPEC §4: sign-out follows a successful change after 2 seconds. */
export const LOGOUT_AFTER_CHANGE_MS = 2000;

/**
 * SPEC §5 password prompt: title 'hint', prompt 'please enter new password', the format rule;
 * cancel says 'cancelled input'; success says 'modified successfully' then signs out.
 */
export default function ChangePassword({ open, musercode, onClose }: { open: boolean; musercode: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const { signOut } = useSession();
  const [form] = Form.useForm<{ pwd: string }>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const { pwd } = await form.validateFields();
    setBusy(true);
    try {
      await call('as.m.user.updateMUser', { musercode, pwd: hashPassword(pwd) });
      void message.success(t('shell.modifiedSuccessfully'));
      onClose();
      setTimeout(() => void signOut(), LOGOUT_AFTER_CHANGE_MS);
    } catch {
      // The request client showed the error; the dialog stays open to try again.
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
          name="pwd"
          label={t('shell.enterNewPassword')}
          extra={t('shell.passwordRule')}
          validateTrigger="onSubmit"
          rules={[{ validator: (_r, v: string | undefined) => (v && isValidNewPassword(v) ? Promise.resolve() : Promise.reject(new Error(t('shell.passwordFormatIncorrect')))) }]}
        >
          <Input.Password autoFocus autoComplete="new-password" maxLength={64} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
