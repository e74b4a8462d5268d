import { Alert, Col, Form, Input, QRCode, Radio, Row, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { accountActions, MAX_PAGE_SIZE, MUserType, type ActionInput, type ActionName, type MUserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { hashPassword } from '../../auth';
import { usePermission } from '../../auth/session';
import { Field, FormDialog, RegionPicker, fieldsToRegion, regionToFields, type RegionPath } from '../../components/form';
import { useEnabledOptions, useEnumOptions } from '../../lib/options';
import { NewPasswordFields } from '../../features/system/ResetPwdDialog';
import './service.css';
import CategoryPathPicker, { categoryKeys, pathToFields, type AccountKind } from './CategoryPathPicker';

/** SPEC §9: the QR code is 200×200 in the account dialog. */
export const ACCOUNT_QR_SIZE = 200;

/** The input's fields, with the region and category as paths and the password typed twice (sent as its MD5). */
type AccountForm = Omit<
  ActionInput<'as.m.user.addMUser'>,
  'pwd' | keyof ReturnType<typeof regionToFields> | (typeof categoryKeys)[number]
> & {
  password: string;
  confirm: string;
  region: RegionPath;
  category: string[];
};

export interface AccountDialogProps {
  open: boolean;
  kind: AccountKind;
  /** The account to edit (a list row, phone masked), or null to add one. */
  account: MUserRow | null;
  onClose: () => void;
  invalidates?: ActionName[];
}

/** Types each page creates: institutions 001–004, providers 005 (the server checks who may). */
export const typesOf = (kind: AccountKind) => MUserType.filter((i) => (kind === 'provider' ? i.value === '005' : i.value !== '005'));

/**
 * Add or edit an institution or provider: sign-in account and initial password (SPEC §5 rule,
 * sent as uppercase MD5), type, name, contact, region (RegionPicker) and category path. The
 * edit form reads the account afresh (phone in full) and shows its QR code at 200×200.
 */
export default function AccountDialog({ open, kind, account, onClose, invalidates }: AccountDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AccountForm>();
  const types = useEnumOptions(typesOf(kind));
  const enabledOptions = useEnabledOptions();
  const detail = useAction('as.m.user.getMUser', { musercode: account?.musercode ?? '' }, { enabled: open && !!account, staleTime: 0 });
  // The super account names the provider a new institution belongs to (none: the platform's own).
  const { roles } = usePermission();
  const pickOwner = !account && kind === 'institution' && roles.includes('admin');
  const providers = useAction(
    'as.m.user.getMUserPageList',
    { kind: 'provider', page: 1, pageSize: MAX_PAGE_SIZE },
    {
      enabled: open && pickOwner,
      select: (d) => d.rows.map((p) => ({ value: p.musercode, label: t('common.bracketed', { text: p.insname, detail: p.username }) })),
    },
  );

  function submit({ region, category, password, confirm: _confirm, ...fields }: AccountForm) {
    // An edit form holds only what an edit changes (the sign-in, type and category fields are not shown).
    if (account) return call('as.m.user.updateMUser', { musercode: account.musercode, ...fields, ...regionToFields(region) });
    return call('as.m.user.addMUser', { ...fields, pwd: hashPassword(password), ...regionToFields(region), ...pathToFields(category) });
  }

  const nameLabel = kind === 'provider' ? t('Service.account.providerName') : t('Service.account.insname');
  const title = account
    ? t(kind === 'provider' ? 'Service.account.editProvider' : 'Service.account.editInstitution')
    : t(kind === 'provider' ? 'Service.account.addProvider' : 'Service.account.addInstitution');
  const qrcodeurl = detail.data?.qrcodeurl ?? account?.qrcodeurl ?? '';
  return (
    <FormDialog<AccountForm>
      open={open}
      title={title}
      action={accountActions['as.m.user.addMUser']}
      resource="Service.account"
      form={form}
      width={760}
      layout="vertical"
      // The edit form is the account read afresh (phone in full).
      record={account ? detail.data && { ...detail.data, region: fieldsToRegion(detail.data) } : null}
      defaults={{ musertype: types.length === 1 ? (types[0].value as AccountForm['musertype']) : undefined, region: [], category: [] }}
      load={{ error: detail.error, loading: !!account && detail.isLoading, retry: () => void detail.refetch() }}
      onSubmit={submit}
      onClose={onClose}
      invalidates={invalidates}
      formProps={{ 'data-testid': 'account-form' } as object}
    >
      {account && <Alert type="info" showIcon title={t('Service.account.editHint')} style={{ marginBottom: 16 }} />}
      <Row gutter={16}>
        <Col span={account && qrcodeurl ? 16 : 24}>
          <Row gutter={16}>
            {account ? (
              <Col span={24}>
                <Form.Item label={t('Service.account.username')}>
                  <Space size={12}>
                    <Typography.Text strong>{account.username}</Typography.Text>
                    <Typography.Text type="secondary">
                      {types.find((o) => o.value === account.musertype)?.label ?? account.musertype}
                    </Typography.Text>
                  </Space>
                </Form.Item>
              </Col>
            ) : (
              <>
                <Field span={12} name="username" tooltip={t('Service.account.usernameFormat')}>
                  <Input autoComplete="off" data-testid="account-username" />
                </Field>
                <Field span={12} name="musertype">
                  <Select options={types} data-testid="account-type" />
                </Field>
                <NewPasswordFields
                  confirmLabel={t('Service.account.confirmPassword')}
                  testId="account"
                  cols={[{ span: 12 }, { span: 12 }]}
                />
              </>
            )}
            <Field span={24} name="insname" label={nameLabel}>
              <Input data-testid="account-insname" />
            </Field>
            <Field span={12} name="realname">
              <Input data-testid="account-realname" />
            </Field>
            <Field span={12} name="phonenumber">
              <Input data-testid="account-phone" />
            </Field>
            <Field span={24} name="website" tooltip={t('Service.account.websiteFormat')}>
              <Input placeholder="https://" data-testid="account-website" />
            </Field>
            <Field
              span={24}
              name="region"
              label={t('Service.account.region')}
              required
              rules={[
                {
                  validator: async (_, v: RegionPath | undefined) =>
                    v && v.length >= 2 ? undefined : Promise.reject(new Error(t('common.regionChoose'))),
                },
              ]}
            >
              <RegionPicker style={{ width: '100%' }} />
            </Field>
            {pickOwner && (
              <Field span={24} name="parentcode" label={t('Service.account.parentname')} extra={t('Service.account.parentHint')}>
                <Select
                  allowClear
                  showSearch={{ optionFilterProp: 'label' }}
                  options={providers.data}
                  loading={providers.isLoading}
                  placeholder={t('Service.account.parentNone')}
                  data-testid="account-parent"
                />
              </Field>
            )}
            {!account && (
              <>
                <Field span={24} name="category" label={t('Service.account.categoryPath')}>
                  <CategoryPathPicker kind={kind} />
                </Field>
                <Field span={12} name="enabled" label={t('common.status')}>
                  <Radio.Group options={enabledOptions} />
                </Field>
              </>
            )}
          </Row>
        </Col>
        {account && qrcodeurl && (
          <Col span={8} style={{ textAlign: 'center' }}>
            <Typography.Text type="secondary">{t('Service.account.qrcodeTitle')}</Typography.Text>
            <QRCode
              value={qrcodeurl}
              size={ACCOUNT_QR_SIZE}
              type="canvas"
              bordered={false}
              className="service-qr"
              style={{ margin: '8px auto' }}
              data-testid="account-qr"
            />
          </Col>
        )}
      </Row>
    </FormDialog>
  );
}
