import { useEffect, useState } from 'react';
import { Alert, App as AntApp, Form, Input, InputNumber, Modal, Radio, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '@xinli/contract';
import { call } from '../../api';
import { ErrorState } from '../../components/list';
import MenuTreePicker from './MenuTreePicker';
import { InstitutionSelect, useEnabledOptions, useInstitutions } from './shared';

interface RoleForm {
  rolename: string;
  rolekey: string;
  sort: number;
  enabled: 0 | 1;
  remark: string;
  codes: string[];
  musercode?: string;
}

export interface RoleDialogProps {
  /** The role to edit, or null to add one. */
  role: RoleRow | null;
  /** The institution a new role starts in (a provider's list filter); the caller's own otherwise. */
  musercode?: string;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}

const ROLE_KEY = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/** Add or edit a role with its menu permissions (the menu tree the caller may give). */
export default function RoleDialog({ role, musercode, open, onClose, onSaved }: RoleDialogProps) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [form] = Form.useForm<RoleForm>();
  const [saving, setSaving] = useState(false);
  const enabledOptions = useEnabledOptions();
  const builtIn = role?.rolekey === 'admin';
  const institutions = useInstitutions();
  // A new role's menu tree is that of the institution it is for.
  const owner = Form.useWatch('musercode', form) ?? musercode;

  const tree = useQuery({
    queryKey: role ? ['as.m.system.role.selectRoleMenuTreeselect', { roleid: role.roleid }] : ['as.m.system.role.selectMuserMenuTreeselect', { musercode: owner }],
    queryFn: async () =>
      role
        ? call('as.m.system.role.selectRoleMenuTreeselect', { roleid: role.roleid })
        : { ...(await call('as.m.system.role.selectMuserMenuTreeselect', owner ? { musercode: owner } : {})), checkedKeys: [] as string[] },
    enabled: open,
    staleTime: 0,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      role ? { rolename: role.rolename, rolekey: role.rolekey, sort: role.sort, enabled: role.enabled as 0 | 1, remark: role.remark } : { sort: 0, enabled: 1, remark: '', musercode: musercode ?? institutions.own },
    );
    // The institution list arriving later must not reset what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, role, form, musercode]);

  useEffect(() => {
    if (open && tree.data) form.setFieldValue('codes', tree.data.checkedKeys);
  }, [open, tree.data, form]);

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const fields = { rolename: values.rolename, rolekey: values.rolekey, sort: values.sort ?? 0, enabled: values.enabled, remark: values.remark ?? '' };
      // Codes are sent only when the tree was shown: a failed tree load must not clear a role's menus.
      const codes = tree.data && !builtIn ? { codes: values.codes ?? [] } : {};
      if (role) await call('as.m.system.role.updateRole', { roleid: role.roleid, ...fields, ...codes });
      else await call('as.m.system.role.insertRole', { ...fields, ...codes, ...(values.musercode ? { musercode: values.musercode } : {}) });
      message.success(t('system.common.saved'));
      onSaved();
    } catch {
      // The request client has shown the server's message; the dialog stays open to fix it.
    } finally {
      setSaving(false);
    }
  }

  const enter = (field: string) => t('system.common.enter', { field: t(field) });
  return (
    <Modal
      open={open}
      title={t(role ? 'system.role.editTitle' : 'system.role.addTitle')}
      width={680}
      okText={t('system.common.save')}
      cancelText={t('system.common.cancel')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      forceRender
      data-testid="role-dialog"
    >
      <Form<RoleForm> form={form} layout="horizontal" labelCol={{ flex: '120px' }} labelWrap wrapperCol={{ flex: 1 }} colon={false} style={{ marginTop: 16 }}>
        {builtIn && <Alert type="info" showIcon title={t('system.role.builtInTip')} style={{ marginBottom: 16 }} />}
        {!role && institutions.many && (
          <Form.Item name="musercode" label={t('system.common.institution')} rules={[{ required: true }]}>
            <InstitutionSelect onChange={() => form.setFieldValue('codes', [])} />
          </Form.Item>
        )}
        <Form.Item name="rolename" label={t('system.role.rolename')} rules={[{ required: true, whitespace: true, message: enter('system.role.rolename') }, { max: 30 }]}>
          <Input placeholder={enter('system.role.rolename')} maxLength={30} data-testid="role-name" />
        </Form.Item>
        <Form.Item
          name="rolekey"
          label={t('system.role.rolekey')}
          tooltip={t('system.role.rolekeyTip')}
          rules={[{ required: true, message: enter('system.role.rolekey') }, { pattern: ROLE_KEY, message: t('system.role.rolekeyFormat') }, { max: 32 }]}
        >
          <Input placeholder={enter('system.role.rolekey')} maxLength={32} disabled={builtIn} data-testid="role-key" />
        </Form.Item>
        <Form.Item name="sort" label={t('system.common.sort')}>
          <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="enabled" label={t('system.common.status')}>
          <Radio.Group options={enabledOptions} disabled={builtIn} />
        </Form.Item>
        <Form.Item label={t('system.role.menus')}>
          {tree.data ? (
            <Form.Item name="codes" noStyle>
              <MenuTreePicker menus={tree.data.menus} disabled={builtIn} />
            </Form.Item>
          ) : tree.error ? (
            <ErrorState error={tree.error} onRetry={() => tree.refetch()} />
          ) : (
            <Spin description={t('system.role.menusLoading')} />
          )}
        </Form.Item>
        <Form.Item name="remark" label={t('system.common.remark')} rules={[{ max: 200 }]}>
          <Input.TextArea rows={2} maxLength={200} showCount placeholder={enter('system.common.remark')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
