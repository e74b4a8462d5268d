import { useEffect } from 'react';
import { App as AntApp, Button, Col, Empty, Form, Input, QRCode, Row, Select, Space, Spin, Switch, Typography } from 'antd';
import { CopyOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountActions, type MUserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { ErrorState, useConfirmCall } from '../../components/list';
import { Field, FormDialog } from '../../components/form';
import { ExportButton } from '../../components/transfer';
import { useStages } from '../../components/pickers';
import './service.css';

/** SPEC §9: the QR code is 400×400 in the large dialog. */
export const LARGE_QR_SIZE = 400 as const;

interface ClientForm {
  title: string;
  logourl: string;
  welcome: string;
  consent: string;
  appids: string[];
  stagecodes: string[];
  showresult: 0 | 1;
  hotline: string;
}

/** The QR code of a respondent link at SPEC §9 size, its link, download and reset. */
export function QrPanel({ account, qrcodeurl, size }: { account: MUserRow; qrcodeurl: string; size: 200 | 400 }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const confirm = useConfirmCall();
  return (
    <Space orientation="vertical" align="center" size={8} style={{ width: '100%' }} data-testid="qr-panel">
      <QRCode value={qrcodeurl} size={size} type="canvas" bordered={false} className="service-qr" data-testid="client-qr" />
      <Typography.Text copyable={false} type="secondary" style={{ wordBreak: 'break-all', textAlign: 'center' }} data-testid="client-link">
        {qrcodeurl}
      </Typography.Text>
      <Space wrap>
        <Button
          icon={<CopyOutlined />}
          onClick={() => void navigator.clipboard?.writeText(qrcodeurl).then(() => message.success(t('Service.account.copied')))}
        >
          {t('Service.account.copyLink')}
        </Button>
        <ExportButton
          action="as.m.user.downloadQrCode"
          input={{ musercode: account.musercode, size }}
          filename={`${account.insname}.png`}
          data-testid="qr-download"
        >
          {t('Service.account.downloadQr')}
        </ExportButton>
        <Button
          danger
          icon={<ReloadOutlined />}
          data-testid="qr-reset"
          onClick={() =>
            void confirm({
              action: 'as.m.user.resetQrCode',
              input: { musercode: account.musercode },
              content: t('Service.account.resetQrConfirm'),
              success: t('Service.account.resetQrDone'),
              danger: true,
              invalidates: ['as.m.user.getMUserClient', 'as.m.user.getMUserPageList', 'as.m.user.getMUser'],
            })
          }
        >
          {t('Service.account.resetQr')}
        </Button>
      </Space>
    </Space>
  );
}

export interface ClientDialogProps {
  account: MUserRow | null;
  onClose: () => void;
}

/**
 * The respondent entry of an institution (the large dialog): what its respondents see when they
 * open its link (title, logo, welcome and consent text, apps and stages offered, whether they see
 * their results, the crisis hotline), and the link's QR code at 400×400 (SPEC §9).
 */
export default function ClientDialog({ account, onClose }: ClientDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ClientForm>();
  const queryClient = useQueryClient();
  const open = !!account;
  const musercode = account?.musercode ?? '';
  const client = useAction('as.m.user.getMUserClient', { musercode }, { enabled: open, staleTime: 0 });
  const apps = useAction('as.m.app.muser.getMUserAppList', { musercode }, { enabled: open });
  const appids = Form.useWatch('appids', form);
  const stages = useStages(appids?.length === 1 ? appids[0] : undefined);

  useEffect(() => {
    if (!open || client.data === undefined) return;
    const c = client.data;
    form.setFieldsValue(
      c
        ? { ...c, showresult: c.showresult === 1 ? (1 as const) : (0 as const) }
        : { title: account!.insname, logourl: '', welcome: '', consent: '', appids: [], stagecodes: [], showresult: 0, hotline: '' },
    );
  }, [open, client.data, form, account]);

  async function submit(v: ClientForm) {
    const fields = {
      title: v.title.trim(),
      logourl: v.logourl?.trim() ?? '',
      welcome: v.welcome ?? '',
      consent: v.consent ?? '',
      appids: v.appids ?? [],
      stagecodes: v.stagecodes ?? [],
      showresult: v.showresult,
      hotline: v.hotline ?? '',
    };
    if (client.data) await call('as.m.user.updateMUserClient', { musercode, ...fields });
    else await call('as.m.user.createMUserClient', { musercode, ...fields });
    await queryClient.invalidateQueries({ queryKey: ['as.m.user.getMUserClient'] });
  }

  const qrcodeurl = client.data?.qrcodeurl;
  return (
    <FormDialog<ClientForm>
      open={open}
      title={t('Service.account.clientTitle', { name: account?.insname ?? '' })}
      action={accountActions[client.data ? 'as.m.user.updateMUserClient' : 'as.m.user.createMUserClient']}
      resource="Service.account"
      form={form}
      width={1040}
      layout="vertical"
      okDisabled={!!client.error}
      onSubmit={submit}
      // Saving a new entry keeps the dialog open: its QR code is what the user came for.
      onSaved={() => (client.data ? onClose() : undefined)}
      onClose={onClose}
      invalidates={['as.m.user.getMUserPageList']}
      data-testid="client-dialog"
    >
      {client.error ? (
        <ErrorState error={client.error} onRetry={() => client.refetch()} />
      ) : (
        <Spin spinning={client.isLoading}>
          <Row gutter={24}>
            <Col flex="1 1 440px" style={{ minWidth: 0 }}>
              {!client.data && !client.isLoading && (
                <Typography.Paragraph type="secondary">{t('Service.account.clientCreateHint')}</Typography.Paragraph>
              )}
              <Field name="title">
                <Input data-testid="client-title" />
              </Field>
              <Field name="logourl" tooltip={t('Service.account.logourlFormat')}>
                <Input placeholder="https://" />
              </Field>
              <Field name="welcome">
                <Input.TextArea rows={2} showCount data-testid="client-welcome" />
              </Field>
              <Field name="consent">
                <Input.TextArea rows={3} showCount />
              </Field>
              <Row gutter={16}>
                <Field span={12} name="appids" label={t('Service.account.clientApps')}>
                  <Select
                    mode="multiple"
                    allowClear
                    loading={apps.isLoading}
                    options={(apps.data ?? []).map((a) => ({ value: a.appid, label: a.appname }))}
                    data-testid="client-apps"
                  />
                </Field>
                <Field
                  span={12}
                  name="stagecodes"
                  label={t('Service.account.clientStages')}
                  tooltip={t('Service.account.clientStagesHint')}
                >
                  <Select mode="multiple" allowClear loading={stages.loading} options={stages.options} optionFilterProp="label" />
                </Field>
              </Row>
              <Row gutter={16}>
                <Field span={12} name="hotline">
                  <Input placeholder={t('Service.account.hotlinePlaceholder')} />
                </Field>
                <Field span={12} name="showresult">
                  <Switch data-testid="client-showresult" />
                </Field>
              </Row>
            </Col>
            <Col flex={`0 0 ${LARGE_QR_SIZE + 24}px`} style={{ textAlign: 'center' }}>
              <Typography.Title level={5}>{t('Service.account.qrcodeTitle')}</Typography.Title>
              {qrcodeurl && account ? (
                <QrPanel account={account} qrcodeurl={qrcodeurl} size={LARGE_QR_SIZE} />
              ) : (
                <Empty description={t('Service.account.qrPending')} style={{ marginTop: 80 }} />
              )}
            </Col>
          </Row>
        </Spin>
      )}
    </FormDialog>
  );
}
