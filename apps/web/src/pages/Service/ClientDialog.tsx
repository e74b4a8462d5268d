import { useState } from 'react';
import { App as AntApp, Button, Col, Empty, Form, Input, QRCode, Row, Select, Space, Switch, Typography } from 'antd';
import { CopyOutlined, ReloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { accountActions, type ActionInput, type MUserRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { useConfirmCall } from '../../components/list';
import { Field, FormDialog } from '../../components/form';
import { ExportButton } from '../../components/transfer';
import { Can } from '../../components/access';
import { NoticeDialog } from '../../features/consent/consent-ui';
import { useT } from '../../i18n/useT';
import { useStages } from '../../components/pickers';
import './service.css';

/** SPEC §9: the QR code is 400×400 in the large dialog. */
export const LARGE_QR_SIZE = 400 as const;

type ClientForm = Omit<ActionInput<'as.m.user.createMUserClient'>, 'musercode'>;

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
  const open = !!account;
  const musercode = account?.musercode ?? '';
  const k = useT('archives.consent');
  const [noticeOpen, setNoticeOpen] = useState(false);
  const client = useAction('as.m.user.getMUserClient', { musercode }, { enabled: open, staleTime: 0 });
  const apps = useAction('as.m.app.muser.getMUserAppList', { musercode }, { enabled: open });
  const appids = Form.useWatch('appids', form);
  const stages = useStages(appids?.length === 1 ? appids[0] : undefined);

  const submit = (v: ClientForm) =>
    client.data ? call('as.m.user.updateMUserClient', { musercode, ...v }) : call('as.m.user.createMUserClient', { musercode, ...v });

  const qrcodeurl = client.data?.qrcodeurl;
  return (
    <>
      <FormDialog<ClientForm>
        open={open}
        title={t('Service.account.clientTitle', { name: account?.insname ?? '' })}
        action={accountActions[client.data ? 'as.m.user.updateMUserClient' : 'as.m.user.createMUserClient']}
        resource="Service.account"
        form={form}
        width={1040}
        layout="vertical"
        // The entry read afresh (its fields shown once it is in the form: a welcome typed before it
        // arrived was undone); none yet: a new one titled with the institution's name.
        load={{ error: client.error, loading: client.isLoading, retry: () => void client.refetch() }}
        record={client.data}
        defaults={{ title: account?.insname }}
        onSubmit={submit}
        // Saving a new entry keeps the dialog open: its QR code is what the user came for.
        onSaved={() => (client.data ? onClose() : undefined)}
        onClose={onClose}
        invalidates={['as.m.user.getMUserPageList', 'as.m.user.getMUserClient']}
        data-testid="client-dialog"
      >
        <Row gutter={24}>
          <Col flex="1 1 440px" style={{ minWidth: 0 }}>
            {!client.data && <Typography.Paragraph type="secondary">{t('Service.account.clientCreateHint')}</Typography.Paragraph>}
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
            <Can action="as.m.consent.saveNotice">
              <Form.Item label={k('notice')} extra={k('noticeHelp')}>
                <Button icon={<SafetyCertificateOutlined />} onClick={() => setNoticeOpen(true)} data-testid="client-notice">
                  {k('notice')}
                </Button>
              </Form.Item>
            </Can>
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
              <Field span={12} name="stagecodes" label={t('Service.account.clientStages')} tooltip={t('Service.account.clientStagesHint')}>
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
      </FormDialog>
      {/* After the entry dialog, so it opens above it. */}
      <NoticeDialog musercode={musercode} open={open && noticeOpen} onClose={() => setNoticeOpen(false)} />
    </>
  );
}
