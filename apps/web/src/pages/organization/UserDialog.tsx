import { useMemo } from 'react';
import { Form, Input, Radio, Row, Select, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemActions, Gender, type ActionInput, type ActionName, type DeptTreeNode, type UserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { hashPassword, useSession } from '../../auth';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useEnabledOptions, useEnumOptions } from '../../lib/options';
import { NewPasswordFields } from '../../features/system/ResetPwdDialog';

/** The input, with the password typed twice (it is sent hashed, as pwd). */
type UserForm = ActionInput<'as.m.system.user.insertUser'> & { password: string; confirm: string };

export interface UserDialogProps {
  open: boolean;
  /** The user to edit (from the list, phone masked); null to add one. */
  user: UserRow | null;
  /** The department a new user starts in (the one chosen in the tree). */
  deptid?: string | null;
  /** The institution a new user starts in (the chosen department's, or the list filter's). */
  musercode?: string;
  onClose: () => void;
  invalidates?: ActionName[];
}

type TreeOption = { value: string; title: string; disabled: boolean; children: TreeOption[] };
const toOptions = (nodes: DeptTreeNode[]): TreeOption[] =>
  nodes.map((n) => ({ value: n.deptid, title: n.deptname, disabled: n.enabled !== 1, children: toOptions(n.children) }));

/**
 * Add or edit a staff user: sign-in name and password (new users), profile, department and
 * roles of its institution. The edit form reads the user afresh, phone in full.
 */
export default function UserDialog({ open, user, deptid, musercode, onClose, invalidates }: UserDialogProps) {
  const { t } = useTranslation();
  const { session } = useSession();
  const [form] = Form.useForm<UserForm>();
  const genders = useEnumOptions(Gender);
  const enabledOptions = useEnabledOptions();
  const institutions = useInstitutions();
  // A new user's roles and departments are those of the institution it is for.
  const chosen: string | undefined = Form.useWatch('musercode', form) ?? musercode;

  const detail = useAction('as.m.system.user.selectUserById', user ? { userid: user.userid } : chosen ? { musercode: chosen } : {}, {
    enabled: open,
    staleTime: 0,
  });
  const depts = useAction('as.m.system.user.selectDeptTreeList', {}, { enabled: open });
  // Only the departments of the user's own institution can be chosen.
  const institution = user?.musercode ?? chosen ?? session?.user.musercode;
  const deptOptions = useMemo(() => toOptions((depts.data ?? []).filter((d) => d.musercode === institution)), [depts.data, institution]);

  const held = useMemo(() => new Set(detail.data?.user?.roleids ?? []), [detail.data]);
  const roleOptions = (detail.data?.roles ?? []).map((r) => ({
    value: r.roleid,
    label: r.grantable || held.has(r.roleid) ? r.rolename : t('common.bracketed', { text: r.rolename, detail: t('organization.user.notGrantable') }),
    disabled: !r.grantable && !held.has(r.roleid),
  }));

  function submit({ sysusername, password, confirm: _confirm, ...fields }: UserForm) {
    if (user) return call('as.m.system.user.updateUser', { userid: user.userid, ...fields });
    return call('as.m.system.user.insertUser', { ...fields, sysusername: sysusername.trim(), pwd: hashPassword(password) });
  }

  const loading = detail.isLoading || (user && !detail.data && !detail.error);
  return (
    <FormDialog<UserForm>
      open={open}
      editing={!!user}
      action={systemActions['as.m.system.user.insertUser']}
      resource="organization.user"
      form={form}
      width={720}
      layout="vertical"
      // The edit form is the user read afresh (phone in full).
      record={user ? (detail.data?.user ?? undefined) : null}
      defaults={{ deptid, musercode: musercode ?? institutions.own }}
      load={{ error: detail.error, loading: !!loading, retry: () => void detail.refetch() }}
      onSubmit={submit}
      onClose={onClose}
      invalidates={invalidates}
      formProps={{ 'data-testid': 'user-form' } as object}
    >
      <Row gutter={16}>
        {!user && institutions.many && (
          <Field
            span={24}
            name="musercode"
            label={t('common.institution')}
            required
            rules={[{ required: true, message: t('common.choose', { field: t('common.institution') }) }]}
          >
            <InstitutionSelect onChange={() => form.setFieldsValue({ deptid: null, roleids: [] })} />
          </Field>
        )}
        <Field span={12} name="realname">
          <Input data-testid="user-realname" />
        </Field>
        <Field span={12} name="deptid" label={t('organization.user.dept')}>
          <TreeSelect allowClear treeDefaultExpandAll treeData={deptOptions} loading={depts.isLoading} data-testid="user-dept" />
        </Field>
        {!user && (
          <>
            <Field span={12} name="sysusername" tooltip={t('organization.user.sysusernameFormat')}>
              <Input autoComplete="off" data-testid="user-sysusername" />
            </Field>
            <NewPasswordFields
              confirmLabel={t('organization.user.confirmPassword')}
              testId="user"
              cols={[{ span: 12 }, { span: 12, offset: 12 }]}
            />
          </>
        )}
        <Field span={12} name="phonenumber">
          <Input />
        </Field>
        <Field span={12} name="email">
          <Input />
        </Field>
        {/* No gender ('') shows the placeholder. */}
        <Field span={12} name="sex" getValueProps={(v: string | undefined) => ({ value: v || undefined })}>
          <Select allowClear options={genders} />
        </Field>
        <Field span={12} name="enabled" label={t('common.status')}>
          <Radio.Group options={enabledOptions} />
        </Field>
        <Field span={24} name="roleids" label={t('organization.user.roles')}>
          <Select mode="multiple" allowClear options={roleOptions} loading={detail.isLoading} data-testid="user-roles" />
        </Field>
        <Field span={24} name="remark">
          <Input.TextArea rows={2} showCount />
        </Field>
      </Row>
    </FormDialog>
  );
}
