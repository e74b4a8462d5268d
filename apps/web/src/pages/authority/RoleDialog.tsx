import { useEffect } from 'react';
import { Alert, Form, Input, InputNumber, Radio, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemActions, type ActionInput, type ActionName, type RoleRow } from '@xinli/contract';
import { call } from '../../api';
import { ErrorState } from '../../components/list';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useEnabledOptions } from '../../lib/options';
import MenuTreePicker from '../../features/system/MenuTreePicker';

type RoleForm = ActionInput<'as.m.system.role.insertRole'>;

export interface RoleDialogProps {
  /** The role to edit, or null to add one. */
  role: RoleRow | null;
  /** The institution a new role starts in (a provider's list filter); the caller's own otherwise. */
  musercode?: string;
  open: boolean;
  onClose: () => void;
  /** Lists to refresh after a save. */
  invalidates?: ActionName[];
}

/** A tree with no menu ticked (stable, so a new role's ticks are not reset on every render). */
const noneTicked = <T extends object>(tree: T) => ({ ...tree, checkedKeys: [] as string[] });

/** Add or edit a role with its menu permissions (the menu tree the caller may give). */
export default function RoleDialog({ role, musercode, open, onClose, invalidates }: RoleDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<RoleForm>();
  const enabledOptions = useEnabledOptions();
  const builtIn = role?.rolekey === 'admin';
  const institutions = useInstitutions();
  // A new role's menu tree is that of the institution it is for.
  const owner = Form.useWatch('musercode', form) ?? musercode;

  // An edited role's tree with its menus ticked; a new role's, that of its institution, none ticked.
  const roleTree = useAction('as.m.system.role.selectRoleMenuTreeselect', { roleid: role?.roleid ?? '' }, { enabled: open && !!role, staleTime: 0 });
  const ownerTree = useAction('as.m.system.role.selectMuserMenuTreeselect', owner ? { musercode: owner } : {}, {
    enabled: open && !role,
    staleTime: 0,
    select: noneTicked,
  });
  const tree = role ? roleTree : ownerTree;

  // After the dialog's reset on opening, and again when another institution's tree arrives.
  useEffect(() => {
    if (open && tree.data) form.setFieldValue('codes', tree.data.checkedKeys);
  }, [open, tree.data, form]);

  function submit({ codes, ...fields }: RoleForm) {
    // Codes are sent only when the tree was shown: a failed tree load must not clear a role's menus.
    const menus = tree.data && !builtIn ? { codes } : {};
    return role
      ? call('as.m.system.role.updateRole', { roleid: role.roleid, ...fields, ...menus })
      : call('as.m.system.role.insertRole', { ...fields, ...menus });
  }

  return (
    <FormDialog<RoleForm>
      open={open}
      action={systemActions['as.m.system.role.insertRole']}
      resource="authority.role"
      form={form}
      width={680}
      labelWidth={120}
      record={role}
      defaults={{ musercode: musercode ?? institutions.own }}
      onSubmit={submit}
      onClose={onClose}
      invalidates={invalidates}
      data-testid="role-dialog"
    >
      {builtIn && <Alert type="info" showIcon title={t('authority.role.builtInTip')} style={{ marginBottom: 16 }} />}
      {!role && institutions.many && (
        <Field
          name="musercode"
          label={t('common.institution')}
          required
          rules={[{ required: true, message: t('common.choose', { field: t('common.institution') }) }]}
        >
          <InstitutionSelect onChange={() => form.setFieldValue('codes', [])} />
        </Field>
      )}
      <Field name="rolename">
        <Input data-testid="role-name" />
      </Field>
      <Field name="rolekey" tooltip={t('authority.role.rolekeyTip')}>
        <Input disabled={builtIn} data-testid="role-key" />
      </Field>
      <Field name="sort">
        <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
      </Field>
      <Field name="enabled" label={t('common.status')}>
        <Radio.Group options={enabledOptions} disabled={builtIn} />
      </Field>
      <Form.Item label={t('authority.role.menus')}>
        {tree.data ? (
          <Form.Item name="codes" noStyle>
            <MenuTreePicker menus={tree.data.menus} disabled={builtIn} />
          </Form.Item>
        ) : tree.error ? (
          <ErrorState error={tree.error} onRetry={() => tree.refetch()} />
        ) : (
          <Spin description={t('authority.role.menusLoading')} />
        )}
      </Form.Item>
      <Field name="remark">
        <Input.TextArea rows={2} showCount />
      </Field>
    </FormDialog>
  );
}
