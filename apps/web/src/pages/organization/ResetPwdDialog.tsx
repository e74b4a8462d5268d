import { useEffect, useState } from 'react';
import { App as AntApp, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '@xinli/contract';
import { call } from '../../api';
import { hashPassword, isValidNewPassword } from '../../auth';

export interface ResetPwdDialogProps {
  user: UserRow | null;
  onClose: () => void;
}

/** Sets a staff user's password (SPEC §5 format, sent as uppercase MD5); the server ends its sessions. */
export default function ResetPwdDialog({ user, onClose }: ResetPwdDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (user) form.resetFields();
  }, [user, form]);

  async function submit() {
    if (!user) return;
    const { password } = await form.validateFields();
    setSaving(true);
    try {
      await call('as.m.system.user.resetPwd', { userid: user.userid, pwd: hashPassword(password) });
      message.success(t('system.user.resetPwdDone'));
      onClose();
    } catch {
      // Shown by the request client.
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={!!user}
      title={t('system.user.resetPwdTitle', { name: user?.sysusername ?? '' })}
      width={460}
      okText={t('system.common.save')}
      cancelText={t('system.common.cancel')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" style={{ marginTop: 16 }} data-testid="reset-pwd-form">
        <Form.Item
          name="password"
          label={t('system.user.password')}
          extra={t('shell.passwordRule')}
          rules={[
            { required: true, message: t('shell.enterNewPassword') },
            { validator: async (_, value: string) => (!value || isValidNewPassword(value) ? undefined : Promise.reject(new Error(t('shell.passwordFormatIncorrect')))) },
          ]}
        >
          <Input.Password maxLength={32} autoComplete="new-password" placeholder={t('shell.enterNewPassword')} />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('system.user.confirmPassword')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('system.common.enter', { field: t('system.user.confirmPassword') }) },
            ({ getFieldValue }) => ({
              validator: async (_, value: string) => (!value || value === getFieldValue('password') ? undefined : Promise.reject(new Error(t('system.user.passwordMismatch')))),
            }),
          ]}
        >
          <Input.Password maxLength={32} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
