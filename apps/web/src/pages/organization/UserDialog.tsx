import { useEffect, useMemo } from 'react';
import { Form, Input, Radio, Row, Select, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { systemActions, Gender, type ActionName, type DeptTreeNode, type UserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { hashPassword, useSession } from '../../auth';
import { Field, FormDialog } from '../../components/form';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { useEnabledOptions, useEnumOptions } from '../../lib/options';
import { NewPasswordFields } from '../../features/system/ResetPwdDialog';

interface UserForm {
  sysusername: string;
  password: string;
  confirm: string;
  realname: string;
  phonenumber: string;
  email: string;
  sex: '' | '01' | '02';
  deptid: string | null;
  roleids: string[];
  enabled: 0 | 1;
  remark: string;
  musercode?: string;
}

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

  useEffect(() => {
    const u = detail.data?.user;
    if (!open || !u) return;
    form.setFieldsValue({
      realname: u.realname,
      phonenumber: u.phonenumber,
      email: u.email,
      sex: (u.sex || undefined) as UserForm['sex'],
      deptid: u.deptid,
      roleids: u.roleids,
      enabled: u.enabled as 0 | 1,
      remark: u.remark,
    });
  }, [open, detail.data, form]);

  async function submit(v: UserForm) {
    const fields = {
      realname: v.realname,
      phonenumber: v.phonenumber ?? '',
      email: v.email ?? '',
      sex: v.sex ?? '',
      deptid: v.deptid ?? null,
      roleids: v.roleids ?? [],
      enabled: v.enabled,
      remark: v.remark ?? '',
    };
    if (user) await call('as.m.system.user.updateUser', { userid: user.userid, ...fields });
    else
      await call('as.m.system.user.insertUser', {
        sysusername: v.sysusername.trim(),
        pwd: hashPassword(v.password),
        ...fields,
        ...(v.musercode ? { musercode: v.musercode } : {}),
      });
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
      values={
        user
          ? undefined
          : {
              deptid: deptid ?? null,
              enabled: 1,
              roleids: [],
              phonenumber: '',
              email: '',
              remark: '',
              musercode: musercode ?? institutions.own,
            }
      }
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
        <Field span={12} name="sex">
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
