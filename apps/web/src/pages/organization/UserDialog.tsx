import { useEffect, useMemo, useState } from 'react';
import { App as AntApp, Col, Form, Input, Modal, Radio, Row, Select, Spin, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Gender, type DeptTreeNode, type UserRow } from '@xinli/contract';
import { call } from '../../api';
import { hashPassword, isValidNewPassword, useSession } from '../../auth';
import { pick } from '../../i18n';
import { ErrorState } from '../../components/list';
import { InstitutionSelect, useEnabledOptions, useInstitutions, useLang } from '../authority/shared';
import { PHONE } from './DeptDialog';

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
  onSaved: () => void;
}

const SIGN_IN_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{1,29}$/;

type TreeOption = { value: string; title: string; disabled: boolean; children: TreeOption[] };
const toOptions = (nodes: DeptTreeNode[]): TreeOption[] => nodes.map((n) => ({ value: n.deptid, title: n.deptname, disabled: n.enabled !== 1, children: toOptions(n.children) }));

/**
 * Add or edit a staff user: sign-in name and password (new users), profile, department and
 * roles of its institution. The edit form reads the user afresh, phone in full.
 */
export default function UserDialog({ open, user, deptid, musercode, onClose, onSaved }: UserDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = AntApp.useApp();
  const { session } = useSession();
  const [form] = Form.useForm<UserForm>();
  const [saving, setSaving] = useState(false);
  const enabledOptions = useEnabledOptions();
  const institutions = useInstitutions();
  // A new user's roles and departments are those of the institution it is for.
  const chosen: string | undefined = Form.useWatch('musercode', form) ?? musercode;

  const detail = useQuery({
    queryKey: ['as.m.system.user.selectUserById', user ? { userid: user.userid } : { musercode: chosen }],
    queryFn: () => call('as.m.system.user.selectUserById', user ? { userid: user.userid } : chosen ? { musercode: chosen } : {}),
    enabled: open,
    staleTime: 0,
  });
  const depts = useQuery({
    queryKey: ['as.m.system.user.selectDeptTreeList', {}],
    queryFn: () => call('as.m.system.user.selectDeptTreeList', {}),
    enabled: open,
  });
  // Only the departments of the user's own institution can be chosen.
  const institution = user?.musercode ?? chosen ?? session?.user.musercode;
  const deptOptions = useMemo(() => toOptions((depts.data ?? []).filter((d) => d.musercode === institution)), [depts.data, institution]);

  const held = useMemo(() => new Set(detail.data?.user?.roleids ?? []), [detail.data]);
  const roleOptions = (detail.data?.roles ?? []).map((r) => ({
    value: r.roleid,
    label: r.grantable || held.has(r.roleid) ? r.rolename : `${r.rolename}（${t('system.user.notGrantable')}）`,
    disabled: !r.grantable && !held.has(r.roleid),
  }));

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (!user) form.setFieldsValue({ deptid: deptid ?? null, enabled: 1, roleids: [], phonenumber: '', email: '', remark: '', musercode: musercode ?? institutions.own });
    // The institution list arriving later must not reset what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, user, deptid, musercode, form]);

  useEffect(() => {
    const u = detail.data?.user;
    if (!open || !u) return;
    form.setFieldsValue({ realname: u.realname, phonenumber: u.phonenumber, email: u.email, sex: (u.sex || undefined) as UserForm['sex'], deptid: u.deptid, roleids: u.roleids, enabled: u.enabled as 0 | 1, remark: u.remark });
  }, [open, detail.data, form]);

  async function submit() {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const fields = { realname: v.realname, phonenumber: v.phonenumber ?? '', email: v.email ?? '', sex: v.sex ?? '', deptid: v.deptid ?? null, roleids: v.roleids ?? [], enabled: v.enabled, remark: v.remark ?? '' };
      if (user) await call('as.m.system.user.updateUser', { userid: user.userid, ...fields });
      else await call('as.m.system.user.insertUser', { sysusername: v.sysusername.trim(), pwd: hashPassword(v.password), ...fields, ...(v.musercode ? { musercode: v.musercode } : {}) });
      message.success(t('system.common.saved'));
      onSaved();
    } catch {
      // The request client has shown the server's message (a taken sign-in name, say).
    } finally {
      setSaving(false);
    }
  }

  const enter = (field: string) => t('system.common.enter', { field: t(field) });
  const choose = (field: string) => t('system.common.choose', { field: t(field) });
  const loading = detail.isLoading || (user && !detail.data && !detail.error);
  return (
    <Modal
      open={open}
      title={t(user ? 'system.user.editTitle' : 'system.user.addTitle')}
      width={720}
      okText={t('system.common.save')}
      cancelText={t('system.common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ disabled: !!detail.error }}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      {detail.error ? (
        <ErrorState error={detail.error} onRetry={() => detail.refetch()} />
      ) : (
        <Spin spinning={!!loading}>
          <Form<UserForm> form={form} layout="vertical" style={{ marginTop: 16 }} data-testid="user-form">
            <Row gutter={16}>
              {!user && institutions.many && (
                <Col span={24}>
                  <Form.Item name="musercode" label={t('system.common.institution')} rules={[{ required: true }]}>
                    <InstitutionSelect onChange={() => form.setFieldsValue({ deptid: null, roleids: [] })} />
                  </Form.Item>
                </Col>
              )}
              <Col span={12}>
                <Form.Item name="realname" label={t('system.user.realname')} rules={[{ required: true, whitespace: true, message: enter('system.user.realname') }, { max: 30 }]}>
                  <Input maxLength={30} placeholder={enter('system.user.realname')} data-testid="user-realname" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="deptid" label={t('system.user.dept')}>
                  <TreeSelect allowClear treeDefaultExpandAll treeData={deptOptions} loading={depts.isLoading} placeholder={choose('system.user.dept')} data-testid="user-dept" />
                </Form.Item>
              </Col>
              {!user && (
                <>
                  <Col span={12}>
                    <Form.Item
                      name="sysusername"
                      label={t('system.user.sysusername')}
                      tooltip={t('system.user.sysusernameFormat')}
                      rules={[{ required: true, message: enter('system.user.sysusername') }, { pattern: SIGN_IN_NAME, message: t('system.user.sysusernameFormat') }]}
                    >
                      <Input maxLength={30} autoComplete="off" placeholder={enter('system.user.sysusername')} data-testid="user-sysusername" />
                    </Form.Item>
                  </Col>
                  <Col span={12}>
                    <Form.Item
                      name="password"
                      label={t('system.user.password')}
                      tooltip={t('shell.passwordRule')}
                      rules={[
                        { required: true, message: enter('system.user.password') },
                        { validator: async (_, value: string) => (!value || isValidNewPassword(value) ? undefined : Promise.reject(new Error(t('shell.passwordFormatIncorrect')))) },
                      ]}
                    >
                      <Input.Password maxLength={32} autoComplete="new-password" placeholder={enter('system.user.password')} data-testid="user-password" />
                    </Form.Item>
                  </Col>
                  <Col span={12} offset={12}>
                    <Form.Item
                      name="confirm"
                      label={t('system.user.confirmPassword')}
                      dependencies={['password']}
                      rules={[
                        { required: true, message: enter('system.user.confirmPassword') },
                        ({ getFieldValue }) => ({
                          validator: async (_, value: string) => (!value || value === getFieldValue('password') ? undefined : Promise.reject(new Error(t('system.user.passwordMismatch')))),
                        }),
                      ]}
                    >
                      <Input.Password maxLength={32} autoComplete="new-password" placeholder={enter('system.user.confirmPassword')} data-testid="user-confirm" />
                    </Form.Item>
                  </Col>
                </>
              )}
              <Col span={12}>
                <Form.Item name="phonenumber" label={t('system.user.phonenumber')} rules={[{ pattern: PHONE, message: t('system.user.phoneFormat') }]}>
                  <Input maxLength={20} placeholder={enter('system.user.phonenumber')} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="email" label={t('system.user.email')} rules={[{ type: 'email', message: t('system.user.emailFormat') }, { max: 64 }]}>
                  <Input maxLength={64} placeholder={enter('system.user.email')} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="sex" label={t('system.user.sex')}>
                  <Select allowClear options={Gender.map((g) => ({ value: g.value, label: pick(g, lang) }))} placeholder={choose('system.user.sex')} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="enabled" label={t('system.common.status')}>
                  <Radio.Group options={enabledOptions} />
                </Form.Item>
              </Col>
              <Col span={24}>
                <Form.Item name="roleids" label={t('system.user.roles')}>
                  <Select mode="multiple" allowClear options={roleOptions} loading={detail.isLoading} placeholder={choose('system.user.roles')} data-testid="user-roles" />
                </Form.Item>
              </Col>
              <Col span={24}>
                <Form.Item name="remark" label={t('system.common.remark')} rules={[{ max: 200 }]}>
                  <Input.TextArea rows={2} maxLength={200} showCount placeholder={enter('system.common.remark')} />
                </Form.Item>
              </Col>
            </Row>
          </Form>
        </Spin>
      )}
    </Modal>
  );
}
