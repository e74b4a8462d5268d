import { useState, type ReactNode } from 'react';
import { Alert, Button, Card, Descriptions, Drawer, Empty, List, Result, Space, Spin, Tag, Typography } from 'antd';
import { CheckOutlined, EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { call } from '../../api';
import type { ActionName, WrittenReport, WrittenReportPersonRow } from '@xinli/contract';
import { Can } from '../../components/access';
import { ErrorState, useConfirmCall } from '../../components/list';
import { LevelTag } from '../../components/levels';
import { formatTime } from '../../lib/format';
import { byRisk, isBusy, POLL_MS, RiskTag, riskColour, useWriterText, WrittenStateTag } from './written-state';
import WrittenDraftDialog from './WrittenDraftDialog';

const GET = 'as.m.report.getWrittenReport';
const GENERATE = 'as.m.report.generateWrittenReports';
const APPROVE = 'as.m.report.approveWrittenReport';

/** A titled block of the written report. */
function Section({ title, testId, children, accent }: { title: string; testId: string; children: ReactNode; accent?: string }) {
  return (
    <Card
      size="small"
      title={title}
      data-testid={testId}
      styles={accent ? { header: { borderInlineStart: `4px solid ${accent}` } } : undefined}
    >
      {children}
    </Card>
  );
}

/** Numbered lines, or "none". */
function Lines({ items }: { items: readonly string[] }) {
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

/** The risks, critical first, each with its level in the five-level colours. */
function Risks({ items }: { items: WrittenReport['risks'] }) {
  const { t } = useTranslation();
  if (!items.length) return <Typography.Text type="secondary">{t('empower.written.noRisk')}</Typography.Text>;
  return (
    <List
      size="small"
      dataSource={byRisk(items)}
      renderItem={(r) => (
        <List.Item style={{ borderInlineStart: `4px solid ${riskColour(r.level)}`, paddingInlineStart: 12 }} data-testid="risk-item">
          <Space align="start" size={8}>
            <RiskTag level={r.level} />
            <span style={{ fontWeight: r.level === 'critical' || r.level === 'high' ? 600 : undefined }}>{r.text}</span>
          </Space>
        </List.Item>
      )}
    />
  );
}

/**
 * One person's written report: the state (a failed one with its error in words and a retry; one
 * being written with its progress), then the sections — summary, findings, risk (critical first,
 * in the report colours), next steps for staff and for the person — the writer, model and time,
 * the assessment reports it was written from, and the draft's edit and approve buttons.
 */
export default function WrittenReportDrawer({
  person,
  onClose,
  invalidates,
}: {
  person: WrittenReportPersonRow | null;
  onClose: () => void;
  invalidates: ActionName[];
}) {
  const { t } = useTranslation();
  const k = (key: string, o?: Record<string, unknown>) => t(`empower.written.${key}`, o);
  const writerText = useWriterText();
  const confirm = useConfirmCall();
  const [editing, setEditing] = useState(false);
  const writtenid = person?.writtenid ?? null;
  const q = useQuery({
    queryKey: [GET, { writtenid }],
    queryFn: () => call(GET, { writtenid: writtenid! }),
    enabled: !!writtenid,
    // A report being written is asked for again until it is done or failed.
    refetchInterval: (query) => (query.state.data && isBusy(query.state.data.state) ? POLL_MS : false),
  });
  const r = q.data;
  const keys = [GET, ...invalidates];

  const retry = () =>
    confirm({ action: GENERATE, input: { cusercodes: [person!.cusercode] }, direct: true, success: k('queuedCount', { count: 1 }), invalidates: keys });
  const approve = () =>
    confirm({
      action: APPROVE,
      input: { writtenid: writtenid! },
      content: k('approveConfirm', { name: person!.realname }),
      success: k('approved'),
      invalidates: keys,
    });

  const body = () => {
    if (!writtenid) return <Result status="info" title={k('noneTitle')} />;
    if (q.error) return <ErrorState error={q.error} onRetry={() => q.refetch()} />;
    if (!r) return <Spin style={{ display: 'block', padding: 48 }} />;
    if (r.state === 'failed')
      return (
        <Alert
          type="error"
          showIcon
          data-testid="written-failed"
          title={k('failedTitle')}
          description={
            <>
              <div data-testid="written-error">{r.error || k('errorUnknown')}</div>
              <Typography.Text type="secondary">{k('failedHint')}</Typography.Text>
            </>
          }
          action={
            <Can action={GENERATE}>
              <Button icon={<ReloadOutlined />} onClick={() => void retry()} data-testid="written-retry">
                {k('retry')}
              </Button>
            </Can>
          }
        />
      );
    if (isBusy(r.state))
      return (
        <Result
          icon={<Spin size="large" />}
          title={k('writingTitle')}
          subTitle={k('writingHint')}
          extra={<WrittenStateTag state={r.state} progress={r.progress} />}
        />
      );
    return (
      <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="written-report">
        <Section title={k('summary')} testId="written-summary">
          <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{r.summary}</Typography.Paragraph>
        </Section>
        <Section title={k('risk')} testId="written-risk" accent={r.risks.length ? riskColour(byRisk(r.risks)[0]!.level) : undefined}>
          <Risks items={r.risks} />
        </Section>
        <Section title={k('findings')} testId="written-findings">
          <Lines items={r.findings} />
        </Section>
        <Section title={k('staffSteps')} testId="written-staff-steps">
          <Lines items={r.staffsteps} />
        </Section>
        <Section title={k('personSteps')} testId="written-person-steps">
          <Lines items={r.personsteps} />
        </Section>
        <Section title={k('sources')} testId="written-sources">
          {r.sources.length ? (
            <List
              size="small"
              dataSource={r.sources}
              renderItem={(s) => (
                <List.Item
                  actions={[
                    <Link key="open" to={`/echarts/web?reportid=${encodeURIComponent(s.reportid)}`} data-testid={`written-source-${s.reportid}`}>
                      {k('sourceOpen')}
                    </Link>,
                  ]}
                >
                  <Space wrap size={8}>
                    <span>{s.formname}</span>
                    <Typography.Text type="secondary">{formatTime(s.createdat)}</Typography.Text>
                    {s.level !== null && <LevelTag level={s.level} colour={s.colour} />}
                  </Space>
                </List.Item>
              )}
            />
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noSources')} />
          )}
        </Section>
      </Space>
    );
  };

  const done = r && (r.state === 'draft' || r.state === 'approved');
  return (
    <Drawer
      open={!!person}
      onClose={onClose}
      size={760}
      destroyOnHidden
      data-testid="written-drawer"
      title={person ? k('titleOf', { name: person.realname }) : k('title')}
      extra={
        r?.state === 'draft' && (
          <Space>
            <Can action="as.m.report.updateWrittenReport">
              <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="written-edit">
                {k('edit')}
              </Button>
            </Can>
            <Can action={APPROVE}>
              <Button type="primary" icon={<CheckOutlined />} onClick={() => void approve()} data-testid="written-approve">
                {k('approve')}
              </Button>
            </Can>
          </Space>
        )
      }
    >
      {r && done && (
        <Descriptions
          size="small"
          bordered
          column={2}
          style={{ marginBottom: 12 }}
          data-testid="written-meta"
          items={[
            { key: 'state', label: k('state'), children: <WrittenStateTag state={r.state} /> },
            {
              key: 'visible',
              label: k('approvedAt'),
              children:
                r.state === 'approved' ? (
                  <Tag color="success">{`${formatTime(r.approvedat ?? '')} · ${r.approvedby ?? ''}`}</Tag>
                ) : (
                  <Typography.Text type="warning">{k('notApproved')}</Typography.Text>
                ),
            },
            { key: 'writer', label: k('generatedBy'), children: <span data-testid="written-writer">{writerText(r.writer, r.model, true)}</span> },
            { key: 'time', label: k('generatedAt'), children: formatTime(r.writtenat ?? '') },
          ]}
        />
      )}
      {body()}
      {r && (
        <WrittenDraftDialog open={editing} report={r} onClose={() => setEditing(false)} invalidates={keys} />
      )}
    </Drawer>
  );
}
