import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Drawer, Empty, Result, Space, Spin, Typography } from 'antd';
import { CheckOutlined, EditOutlined, ReloadOutlined, RollbackOutlined, WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ActionName, WrittenListRow, WrittenReport, WrittenSections } from '@xinli/contract';
import { useAction } from '../../components/query';
import { Can } from '../../components/access';
import { Waiting, useConfirmCall } from '../../components/list';
import { formatTime } from '../../lib/format';
import { isBusy, POLL_MS, RiskTag, riskColour, riskStandsOut, useWriterText, WrittenStateTag } from './written-state';
import WrittenDraftDialog from './WrittenDraftDialog';
import { useT } from '../../i18n/useT';

const GET = 'as.m.report.getAsai1UserReport';
const UPDATE = 'as.m.report.updateAsai1UserReport';
const APPROVE = 'as.m.report.approveAsai1UserReport';
const WITHDRAW = 'as.m.report.withdrawAsai1UserReport';
const RETRY = 'as.m.report.retryAsai1UserReport';

/** A titled block of the written report. */
function Section({ title, testId, children }: { title: ReactNode; testId: string; children: ReactNode }) {
  return (
    <Card size="small" title={title} data-testid={testId}>
      {children}
    </Card>
  );
}

/** Numbered lines, or "none" (the group report's summary shows its findings and steps with it too). */
export function Lines({ items }: { items: readonly string[] }) {
  const { t } = useTranslation();
  if (!items.length) return <Typography.Text type="secondary">{t('empower.written.noItems')}</Typography.Text>;
  return (
    <ol style={{ margin: 0, paddingInlineStart: 20 }}>
      {items.map((s, i) => (
        <li key={i} style={{ marginBottom: 4 }}>
          {s}
        </li>
      ))}
    </ol>
  );
}

/** The risk, first and in its level's colour (urgent in the dark red of the report colours), so it is never missed. */
export function Risk({ risk }: { risk: WrittenSections['risk'] }) {
  const { t } = useTranslation();
  const colour = riskColour(risk.level);
  const strong = riskStandsOut(risk.level);
  return (
    <div
      data-testid="written-risk"
      data-level={risk.level}
      role={strong ? 'alert' : undefined}
      style={{
        border: `1px solid ${colour}`,
        borderInlineStart: `6px solid ${colour}`,
        borderRadius: 8,
        padding: '10px 14px',
        background: strong ? `${colour}14` : undefined,
      }}
    >
      <Space size={8} style={{ marginBottom: 6 }}>
        {strong && <WarningFilled style={{ color: colour, fontSize: 18 }} />}
        <Typography.Text strong>{t('empower.written.risk')}</Typography.Text>
        <RiskTag level={risk.level} />
      </Space>
      <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap', fontWeight: strong ? 600 : undefined }}>{risk.text}</Typography.Paragraph>
    </div>
  );
}

/** The sections of a written (draft or approved) report: risk first, then staff's part, then the person's. */
function Sections({ r, s }: { r: WrittenReport; s: WrittenSections }) {
  const k = useT('empower.written');
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="written-report">
      <Risk risk={s.risk} />
      <Section title={k('summary')} testId="written-summary">
        <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{s.summary}</Typography.Paragraph>
      </Section>
      <Section title={k('findings')} testId="written-findings">
        <Lines items={s.findings} />
      </Section>
      <Section title={k('staffSteps')} testId="written-staff-steps">
        <Lines items={s.staffsteps} />
      </Section>
      <Card
        size="small"
        type="inner"
        title={
          <Space>
            {k('forPerson')}
            {r.state === 'approved' ? (
              <Typography.Text type="success">{k('visible')}</Typography.Text>
            ) : (
              <Typography.Text type="warning">{k('notApproved')}</Typography.Text>
            )}
          </Space>
        }
        data-testid="written-person"
      >
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {k('personMessage')}
        </Typography.Title>
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="written-person-message">
          {s.personmessage}
        </Typography.Paragraph>
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {k('personSteps')}
        </Typography.Title>
        <div data-testid="written-person-steps">
          <Lines items={s.personsteps} />
        </div>
      </Card>
    </Space>
  );
}

/** The reports the text was written from, each a link to its report page. */
function Sources({ sources }: { sources: WrittenReport['sources'] }) {
  const { t } = useTranslation();
  return (
    <Section title={t('empower.written.sources')} testId="written-sources">
      {sources.length ? (
        <ul style={{ margin: 0, padding: 0, listStyle: 'none' }}>
          {sources.map((s) => (
            <li key={s.reportid} style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'baseline', padding: '4px 0' }}>
              <span>{s.formname}</span>
              <Typography.Text type="secondary">{formatTime(s.createdat)}</Typography.Text>
              <Link to={`/echarts/web?reportid=${encodeURIComponent(s.reportid)}`} data-testid={`written-source-${s.reportid}`} style={{ marginInlineStart: 'auto' }}>
                {t('empower.written.sourceOpen')}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empower.written.noSources')} />
      )}
    </Section>
  );
}

/** Who wrote it with what and when; who edited and approved it. */
function Meta({ r }: { r: WrittenReport }) {
  const { t } = useTranslation();
  const k = useT('empower.written');
  const writerText = useWriterText();
  const who = (at: string | null, by: string) => (at ? `${formatTime(at)}${by ? ` · ${by}` : ''}` : '—');
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, md: 2 }}
      data-testid="written-meta"
      items={[
        { key: 'state', label: k('state'), children: <WrittenStateTag state={r.state} progress={r.progress} /> },
        { key: 'writer', label: k('generatedBy'), children: <span data-testid="written-writer">{writerText(r.writer, r.model, true)}</span> },
        { key: 'written', label: k('generatedAt'), children: r.writtenat ? formatTime(r.writtenat) : '—' },
        { key: 'created', label: k('createdBy'), children: who(r.createdat, r.createdbyname) },
        ...(r.editedat ? [{ key: 'edited', label: k('editedBy'), children: who(r.editedat, r.editedbyname) }] : []),
        { key: 'approved', label: k('approvedBy'), children: r.state === 'approved' ? who(r.approvedat, r.approvedbyname) : k('notApproved') },
        { key: 'lang', label: k('lang'), children: t(r.lang === 'en-US' ? 'common.en' : 'common.zh') },
      ]}
    />
  );
}

/**
 * One person's written report: a failed one shows its error in words with a retry (never a
 * text), one being written its progress; a written one its sections (risk first, in the report
 * colours), the writer, model and times, and the reports it was written from. A draft is edited
 * and approved here; an approved one can be withdrawn.
 */
export default function WrittenReportDrawer({
  person,
  onClose,
  invalidates,
}: {
  person: WrittenListRow | null;
  onClose: () => void;
  invalidates: ActionName[];
}) {
  const k = useT('empower.written');
  const confirm = useConfirmCall();
  const [editing, setEditing] = useState(false);
  const writtenid = person?.writtenid ?? null;
  const q = useAction(
    GET,
    { writtenid: writtenid ?? '' },
    {
      enabled: !!writtenid,
      // A report being written is asked for again until it is written or has failed.
      refetchInterval: (query) => (query.state.data && isBusy(query.state.data.state) ? POLL_MS : false),
    },
  );
  // An answer for an earlier written report of the person is not shown while the new one loads.
  const r = q.data && q.data.writtenid === writtenid ? q.data : undefined;
  const keys: ActionName[] = [GET, ...invalidates];
  const name = person?.realname ?? '';
  const run = (action: typeof APPROVE | typeof WITHDRAW | typeof RETRY, content: string | undefined, success: string, danger = false) =>
    void confirm({ action, input: { writtenid: writtenid! }, content, direct: !content, success, danger, invalidates: keys });

  const body = () => {
    if (!writtenid) return <Result status="info" title={k('noneTitle')} />;
    if (!r) return <Waiting query={q} />;
    if (r.state === 'failed')
      return (
        <Alert
          type="error"
          showIcon
          data-testid="written-failed"
          title={k('failedTitle')}
          description={
            <>
              <div data-testid="written-error" style={{ marginBottom: 4 }}>
                {r.error || k('errorUnknown')}
              </div>
              <Typography.Text type="secondary">{k('failedHint')}</Typography.Text>
            </>
          }
          action={
            <Can action={RETRY}>
              <Button icon={<ReloadOutlined />} onClick={() => run(RETRY, undefined, k('retryQueued'))} data-testid="written-retry">
                {k('retry')}
              </Button>
            </Can>
          }
        />
      );
    if (isBusy(r.state) || !r.sections)
      return (
        <Result
          icon={<Spin size="large" />}
          title={k('writingTitle')}
          subTitle={k('writingHint')}
          extra={<WrittenStateTag state={r.state} progress={r.progress} />}
          data-testid="written-busy"
        />
      );
    return <Sections r={r} s={r.sections} />;
  };

  return (
    <Drawer
      open={!!person}
      onClose={onClose}
      size={800}
      destroyOnHidden
      data-testid="written-drawer"
      title={person ? k('titleOf', { name }) : k('title')}
      extra={
        <Space>
          {r?.state === 'draft' && r.sections && (
            <>
              <Can action={UPDATE}>
                <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="written-edit">
                  {k('edit')}
                </Button>
              </Can>
              <Can action={APPROVE}>
                <Button
                  type="primary"
                  icon={<CheckOutlined />}
                  onClick={() => run(APPROVE, k('approveConfirm', { name }), k('approved'))}
                  data-testid="written-approve"
                >
                  {k('approve')}
                </Button>
              </Can>
            </>
          )}
          {r?.state === 'approved' && (
            <Can action={WITHDRAW}>
              <Button icon={<RollbackOutlined />} onClick={() => run(WITHDRAW, k('withdrawConfirm', { name }), k('withdrawn'), true)} data-testid="written-withdraw">
                {k('withdraw')}
              </Button>
            </Can>
          )}
        </Space>
      }
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {person?.stale === 1 && r && !isBusy(r.state) && <Alert type="warning" showIcon title={k('staleHint')} data-testid="written-stale-hint" />}
        {r && <Meta r={r} />}
        {body()}
        {r && <Sources sources={r.sources} />}
      </Space>
      {r?.sections && <WrittenDraftDialog open={editing} writtenid={r.writtenid} sections={r.sections} onClose={() => setEditing(false)} invalidates={keys} />}
    </Drawer>
  );
}
