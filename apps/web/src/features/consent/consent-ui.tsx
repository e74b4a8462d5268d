/**
 * Consent to process sensitive personal information on the console (issue 30 §4): a person's
 * state as a tag, their records and a withdrawal (the person's page), the institution's notice
 * (its entry settings) and a class's guardian consent sheet (the team roster).
 */
import { useState } from 'react';
import { Alert, App as AntApp, Button, Card, Checkbox, Empty, Image, Input, Space, Tag, Timeline, Typography } from 'antd';
import { CheckCircleOutlined, DownloadOutlined, StopOutlined } from '@ant-design/icons';
import {
  ConsentKindName,
  ConsentViaName,
  consentActions,
  enumLabel,
  GuardianRelationName,
  type ActionOutput,
  type ConsentState,
} from '@xinli/contract';
import { call } from '../../api';
import { Can } from '../../components/access';
import { Field, FormDialog } from '../../components/form';
import { useAction } from '../../components/query';
import { ExportButton, ImportButton } from '../../components/transfer';
import { formatTime } from '../../lib/format';
import { useLang } from '../../lib/options';
import { useT } from '../../i18n/useT';

const COLOURS: Record<ConsentState, string> = { given: 'green', pending: 'default', guardianmissing: 'orange', withdrawn: 'red' };

export function ConsentTag({ state }: { state: ConsentState }) {
  const k = useT('archives.consent');
  return (
    <Tag color={COLOURS[state]} data-testid={`consent-${state}`}>
      {k(`state.${state}`)}
    </Tag>
  );
}

/**
 * Whether the person's consent is withdrawn (the person's page reads it anyway): no code or plan is
 * given to them, the server refusing it too.
 */
export function useConsentWithdrawn(cusercode: string): boolean {
  return useAction('as.m.consent.getPersonConsent', { cusercode }, { enabled: !!cusercode }).data?.state === 'withdrawn';
}

type Record_ = ActionOutput<'as.m.consent.getPersonConsent'>['records'][number];

/** One record as a line of the timeline: what, how, which version, who. */
function RecordLine({ r }: { r: Record_ }) {
  const k = useT('archives.consent');
  const lang = useLang();
  const relation = r.relation ? enumLabel(GuardianRelationName, r.relation, lang) : '';
  return (
    <Space orientation="vertical" size={2}>
      <Typography.Text strong>
        {enumLabel(ConsentKindName, r.kind, lang)} · {enumLabel(ConsentViaName, r.via, lang)}
        {r.noticeversion !== null && ` · ${k('version', { version: r.noticeversion })}`}
      </Typography.Text>
      <Typography.Text type="secondary">{formatTime(r.at)}</Typography.Text>
      {r.kind === 'guardian' && r.guardianname && <span>{k('guardianOf', { name: r.guardianname, relation })}</span>}
      {r.teamname && <span>{k('byClass', { team: r.teamname })}</span>}
      {r.reason && <span>{k('reasonOf', { reason: r.reason })}</span>}
      {r.recordedbyname && <Typography.Text type="secondary">{k('recordedBy', { who: r.recordedbyname })}</Typography.Text>}
      {r.signatureurl && (
        <Image
          src={r.signatureurl}
          width={160}
          height={60}
          alt={k('signature')}
          style={{ objectFit: 'contain', border: '1px solid #d9d9d9' }}
        />
      )}
    </Space>
  );
}

type WithdrawForm = { reason: string; byguardian: boolean };

/** Staff record that the person or their guardian withdrew consent (who and why). */
function WithdrawDialog({ cusercode, open, onClose }: { cusercode: string; open: boolean; onClose: () => void }) {
  const k = useT('archives.consent');
  return (
    <FormDialog<WithdrawForm>
      open={open}
      title={k('withdrawTitle')}
      action={consentActions['as.m.consent.withdrawConsent']}
      resource="archives.consent"
      values={{ reason: '', byguardian: false }}
      onSubmit={(v) => call('as.m.consent.withdrawConsent', { cusercode, ...v })}
      invalidates={['as.m.consent.getPersonConsent']}
      success={k('withdrawn')}
      onClose={onClose}
      data-testid="consent-withdraw-dialog"
    >
      <Alert type="warning" showIcon title={k('withdrawHelp')} style={{ marginBottom: 16 }} />
      <Field name="reason">
        <Input.TextArea rows={3} maxLength={500} data-testid="consent-withdraw-reason" />
      </Field>
      <Field name="byguardian" valuePropName="checked" required={false}>
        <Checkbox data-testid="consent-withdraw-guardian">{k('byguardian')}</Checkbox>
      </Field>
    </FormDialog>
  );
}

/** Staff record that a person whose consent was withdrawn consents again (why); the phone then asks again. */
function RenewDialog({ cusercode, open, onClose }: { cusercode: string; open: boolean; onClose: () => void }) {
  const k = useT('archives.consent');
  return (
    <FormDialog<{ reason: string }>
      open={open}
      title={k('renewTitle')}
      action={consentActions['as.m.consent.renewConsent']}
      resource="archives.consent"
      values={{ reason: '' }}
      onSubmit={(v) => call('as.m.consent.renewConsent', { cusercode, ...v })}
      invalidates={['as.m.consent.getPersonConsent']}
      success={k('renewed')}
      onClose={onClose}
      data-testid="consent-renew-dialog"
    >
      <Alert type="info" showIcon title={k('renewHelp')} style={{ marginBottom: 16 }} />
      <Field name="reason" label={k('renewReason')}>
        <Input.TextArea rows={3} maxLength={500} data-testid="consent-renew-reason" />
      </Field>
    </FormDialog>
  );
}

/** The person's page: consent state (under 14 or not, and why), every record, and withdrawal. */
export function PersonConsentCard({ cusercode }: { cusercode: string }) {
  const k = useT('archives.consent');
  const [withdrawing, setWithdrawing] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const q = useAction('as.m.consent.getPersonConsent', { cusercode });
  const c = q.data;
  return (
    <Card
      size="small"
      title={k('title')}
      loading={q.isLoading}
      extra={
        c &&
        (c.state === 'withdrawn' ? (
          <Can action="as.m.consent.renewConsent">
            <Button size="small" icon={<CheckCircleOutlined />} onClick={() => setRenewing(true)} data-testid="consent-renew">
              {k('renew')}
            </Button>
          </Can>
        ) : (
          <Can action="as.m.consent.withdrawConsent">
            <Button size="small" danger icon={<StopOutlined />} onClick={() => setWithdrawing(true)} data-testid="consent-withdraw">
              {k('withdraw')}
            </Button>
          </Can>
        ))
      }
      data-testid="person-consent"
    >
      {c && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <ConsentTag state={c.state} />
            <Typography.Text type="secondary">{k('noticeVersion', { version: c.noticeversion })}</Typography.Text>
          </Space>
          <Typography.Text>
            {c.minorby === 'birthdate' ? k('minorBirthdate') : c.minorby === 'grade' ? k('minorGrade') : k('adult')}
          </Typography.Text>
          {c.records.length ? (
            <Timeline
              items={c.records.map((r) => ({
                key: r.consentid,
                color: r.kind === 'withdrawal' ? 'red' : r.kind === 'renewal' ? 'blue' : 'green',
                content: <RecordLine r={r} />,
              }))}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noRecords')} />
          )}
        </Space>
      )}
      <WithdrawDialog cusercode={cusercode} open={withdrawing} onClose={() => setWithdrawing(false)} />
      <RenewDialog cusercode={cusercode} open={renewing} onClose={() => setRenewing(false)} />
    </Card>
  );
}

type NoticeForm = { zh: string; en: string };

/** The institution's notice, both languages; saving writes a new version (its entry settings). */
export function NoticeDialog({ musercode, open, onClose }: { musercode: string; open: boolean; onClose: () => void }) {
  const k = useT('archives.consent');
  const q = useAction('as.m.consent.getNotice', { musercode }, { enabled: open && !!musercode });
  const { message } = AntApp.useApp();
  return (
    <FormDialog<NoticeForm>
      // Opens once the current notice is read, so the form starts from it.
      open={open && !!q.data}
      title={k('notice')}
      action={consentActions['as.m.consent.saveNotice']}
      resource="archives.consent"
      values={q.data ? { zh: q.data.zh, en: q.data.en } : undefined}
      onSubmit={async (v) => {
        const { version } = await call('as.m.consent.saveNotice', { musercode, ...v });
        message.success(k('noticeSaved', { version }));
      }}
      success={false}
      invalidates={['as.m.consent.getNotice']}
      onClose={onClose}
      width={720}
      layout="vertical"
      data-testid="notice-dialog"
    >
      <Alert
        type="info"
        showIcon
        title={k('noticeHelp')}
        description={q.data?.isdefault ? k('noticeDefault') : k('noticeVersion', { version: q.data?.version ?? 0 })}
        style={{ marginBottom: 16 }}
      />
      <Field name="zh" label={k('noticeZh')}>
        <Input.TextArea rows={7} maxLength={4000} showCount data-testid="notice-zh" />
      </Field>
      <Field name="en" label={k('noticeEn')}>
        <Input.TextArea rows={7} maxLength={8000} showCount data-testid="notice-en" />
      </Field>
    </FormDialog>
  );
}

/** A class's guardian consent sheet: download it with the roster, upload it marked (all or nothing). */
export function ConsentSheetButtons({ teamid }: { teamid: string }) {
  const k = useT('archives.consent');
  const { message } = AntApp.useApp();
  return (
    <Space wrap>
      <ExportButton
        action="as.m.consent.getConsentSheet"
        input={{ teamid }}
        icon={<DownloadOutlined />}
        data-testid="consent-sheet-download"
      >
        {k('sheetDownload')}
      </ExportButton>
      <ImportButton
        action="as.m.consent.importConsentSheet"
        accept=".xlsx"
        send={(file, content) => call('as.m.consent.importConsentSheet', { teamid, filename: file.name, content })}
        onDone={(r) => message.success(k('sheetDone', r))}
        data-testid="consent-sheet-upload"
      >
        {k('sheetUpload')}
      </ImportButton>
    </Space>
  );
}
