/**
 * The AI group report (/task/groupReport, menu 00043): choose a task (and a team, kept in the URL),
 * then participation, the level distribution per indicator, each indicator's group mean against
 * its form's norm (when it has one), classes and grades compared, the trend
 * against the previous task of the same teams, the persons needing attention (names masked, linked
 * to their report and warning case), the written summary (generate, approve) and print / PDF.
 */
import { useState, type ReactNode } from 'react';
import { Button, Card, Col, Empty, Row, Select, Space, Statistic, Tag, Typography } from 'antd';
import { CheckOutlined, EyeInvisibleOutlined, EyeOutlined, RobotOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { LevelColours, type GroupCompareRow, type GroupReport as Report } from '@xinli/contract';
import { useAction } from '../../components/query';
import { Can, useAccess } from '../../components/access';
import BarChart from '../../components/charts/BarChart';
import { DetailTable, Waiting, useConfirmCall } from '../../components/list';
import { LEVELS, LevelTag, useLevelLabel } from '../../components/levels';
import { ExportButton } from '../../components/transfer';
import { formatTime } from '../../lib/format';
import { PrintButton } from '../../features/reports/PrintButton';
import { caseLink, reportLink } from '../../features/links';
import { isBusy, POLL_MS, useWriterText, WrittenStateTag } from '../../features/reports/written-state';
import { Lines, Risk } from '../../features/reports/WrittenReportDrawer';
import { NormBar } from '../../features/norms/NormSection';
import { useT } from '../../i18n/useT';
import type { KeyOf } from '../../i18n/keys';

/** The level from which the server lists a person without a warning (tasks/group-report ATTENTION_LEVEL). */
const ATTENTION_LEVEL = 3;

const TASKS = 'as.m.assess.getTaskList';
const REPORT = 'as.m.assess.getGroupReport';
const SUMMARY = 'as.m.assess.getGroupSummary';
const GENERATE = 'as.m.assess.generateGroupSummary';
const APPROVE = 'as.m.assess.approveGroupSummary';
const DOCUMENT = 'as.m.assess.getGroupReportDocument';
const PDF = 'as.m.assess.exportGroupReportPdf';
const HIDE = 'as.m.assess.showOrHiddenTeamReport';
const WRITERS = 'as.m.report.getAsai1Writers';

type Scope = { taskid: string; teamid?: string };

function useK() {
  return useT('task.groupReport');
}

/** Share of persons at levels 3–4, in percent with one decimal. */
const severe = (levels: number[], of: number) => (of ? Math.round(((levels[3]! + levels[4]!) * 1000) / of) / 10 : 0);

function Section({ title, extra, testId, children }: { title: ReactNode; extra?: ReactNode; testId: string; children: ReactNode }) {
  return (
    <Card size="small" title={title} extra={extra} data-testid={testId}>
      {children}
    </Card>
  );
}

/** Persons per level, stacked in the report colours, one bar per row. */
function LevelBars({ rows, testId }: { rows: { name: string; levels: number[] }[]; testId: string }) {
  const level = useLevelLabel();
  return (
    <BarChart
      stacked
      testId={testId}
      categories={rows.map((r) => r.name)}
      series={LEVELS.map((l) => ({ name: level(l), colour: LevelColours[l], data: rows.map((r) => r.levels[l] ?? 0) }))}
    />
  );
}

function Participation({ r }: { r: Report }) {
  const k = useK();
  const p = r.participation;
  const items: [KeyOf<'task.groupReport'>, ReactNode][] = [
    ['members', p.members],
    ['finished', p.finished],
    ['started', p.started],
    ['notstarted', p.notstarted],
    ['rate', `${p.rate}%`],
  ];
  return (
    <Card size="small" data-testid="group-participation">
      <Row gutter={[16, 8]}>
        {items.map(([key, value]) => (
          <Col key={key} xs={12} md={8} xl={4}>
            <Statistic title={k(key)} value={value as string} data-testid={`group-${key}`} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

function CompareTable({ rows, testId }: { rows: GroupCompareRow[]; testId: string }) {
  const k = useK();
  const level = useLevelLabel();
  return (
    <DetailTable<GroupCompareRow>
      rowKey="key"
      data-testid={testId}
      dataSource={rows}
      columns={[
        { title: k('team'), dataIndex: 'name' },
        { title: k('members'), dataIndex: 'members', align: 'right' },
        { title: k('rate'), dataIndex: 'rate', align: 'right', render: (v: number) => `${v}%` },
        ...LEVELS.map((l) => ({ title: level(l), key: `l${l}`, align: 'right' as const, render: (_: unknown, c: GroupCompareRow) => c.levels[l] })),
        { title: k('warned'), dataIndex: 'warned', align: 'right' },
      ]}
    />
  );
}

/** The written summary: its state, the risk and text once written, generate and approve. */
function Summary({ scope, finished }: { scope: Scope; finished: number }) {
  const k = useK();
  const w = useWriterText();
  const confirm = useConfirmCall();
  const q = useAction(SUMMARY, scope, {
    refetchInterval: (query) => (query.state.data && isBusy(query.state.data.state) ? POLL_MS : false),
  });
  const writers = useAction(WRITERS, {}, { staleTime: 60_000 }).data;
  const [writer, setWriter] = useState<'rules' | 'llm'>('rules');
  const s = q.data;
  const generate = (
    <Can action={GENERATE}>
      <Space.Compact>
        {writers && writers.writers.length > 1 && (
          <Select
            value={writer}
            onChange={setWriter}
            style={{ width: 150 }}
            options={writers.writers.map((x) => ({ value: x.writer, label: w(x.writer, x.model) }))}
            data-testid="group-writer"
          />
        )}
        <Button
          icon={<RobotOutlined />}
          disabled={!finished || (s ? isBusy(s.state) : false)}
          onClick={() =>
            void confirm({ action: GENERATE, input: { ...scope, writer }, direct: true, success: k('queued'), invalidates: [SUMMARY] })
          }
          data-testid="group-generate"
        >
          {k(s ? 'regenerate' : 'generate')}
        </Button>
      </Space.Compact>
    </Can>
  );
  const approve = s?.state === 'draft' && (
    <Can action={APPROVE}>
      <Button
        type="primary"
        icon={<CheckOutlined />}
        onClick={() => void confirm({ action: APPROVE, input: scope, content: k('approveConfirm'), success: k('approved'), invalidates: [SUMMARY] })}
        data-testid="group-approve"
      >
        {k('approve')}
      </Button>
    </Can>
  );
  let body: ReactNode;
  if (s === undefined) body = <Waiting query={q} />;
  else if (!s) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k(finished ? 'noSummary' : 'noResults')} />;
  else
    body = (
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Space wrap>
          <WrittenStateTag state={s.state} error={s.error} />
          <Typography.Text type="secondary">
            {w(s.writer, s.model)} · {formatTime(s.writtenat ?? s.createdat)}
          </Typography.Text>
          {s.state === 'approved' && <Typography.Text type="success">{k('printed')}</Typography.Text>}
        </Space>
        {s.sections && (
          <>
            <Risk risk={s.sections.risk} />
            <Typography.Paragraph style={{ margin: 0 }} data-testid="group-summary-text">
              {s.sections.summary}
            </Typography.Paragraph>
            <Typography.Text strong>{k('findings')}</Typography.Text>
            <Lines items={s.sections.findings} />
            <Typography.Text strong>{k('steps')}</Typography.Text>
            <Lines items={s.sections.steps} />
          </>
        )}
      </Space>
    );
  return (
    <Section
      title={k('summary')}
      testId="group-summary"
      extra={
        <Space wrap>
          {approve}
          {generate}
        </Space>
      }
    >
      {body}
    </Section>
  );
}

/** Print, PDF, and hiding the chosen team's (or every team's) reports from respondents. */
function Actions({ r, scope }: { r: Report; scope: Scope }) {
  const k = useK();
  const { can } = useAccess();
  const confirm = useConfirmCall();
  const doc = useAction(DOCUMENT, scope, { staleTime: 60_000 });
  const teams = scope.teamid ? r.teams.filter((t) => t.teamid === scope.teamid) : r.teams;
  const hidden = teams.length > 0 && teams.every((t) => t.reporthidden === 1);
  return (
    <Space wrap>
      {can(DOCUMENT) && (
        <PrintButton doc={doc} data-testid="group-print">
          {k('print')}
        </PrintButton>
      )}
      {doc.data?.pdf && (
        <ExportButton action={PDF} input={scope} filename={`${r.task.taskname}.pdf`} data-testid="group-pdf">
          {k('pdf')}
        </ExportButton>
      )}
      <Tag icon={hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />} color={hidden ? 'default' : 'success'} data-testid="group-visibility">
        {k(hidden ? 'hidden' : 'shown')}
      </Tag>
      <Can action={HIDE}>
        <Button
          onClick={() =>
            void confirm({
              action: HIDE,
              input: { ...scope, hidden: hidden ? 0 : 1 },
              content: k(hidden ? 'showConfirm' : 'hideConfirm'),
              success: k(hidden ? 'showDone' : 'hideDone'),
              invalidates: [REPORT],
            })
          }
          data-testid="group-toggle"
        >
          {k(hidden ? 'show' : 'hide')}
        </Button>
      </Can>
    </Space>
  );
}

type NormedIndicator = Report['indicators'][number] & { norm: NonNullable<Report['indicators'][number]['norm']> };

/**
 * Each indicator's group mean against its form's default norm (issue 31 §2): the mean, the norm's
 * mean ± SD, z and T of the mean, a bar against the norm band, and the norms' sources as footnotes.
 * Nothing when no form of the task has a norm.
 */
function GroupNorms({ indicators }: { indicators: Report['indicators'] }) {
  const k = useK();
  const n = useT('echarts.norms');
  const rows = indicators.filter((i): i is NormedIndicator => !!i.norm);
  if (!rows.length) return null;
  const sources = [...new Map(rows.map((i) => [i.formcode, i.norm])).values()];
  return (
    <Section title={k('norms')} testId="group-norms">
      {/* Narrow figures and a wrapping name instead of a sideways scroll: the bar stays in view at 1024 px. */}
      <DetailTable<NormedIndicator>
        rowKey={(i) => `${i.formcode}-${i.code}`}
        dataSource={rows}
        scroll={{}}
        columns={[
          { title: n('indicator'), key: 'name', render: (_: unknown, i) => `${i.formname} · ${i.name}` },
          { title: k('groupMean'), dataIndex: 'mean', align: 'right', width: 96 },
          { title: n('norm'), key: 'norm', align: 'right', width: 116, render: (_: unknown, i) => `${i.norm.mean} ± ${i.norm.sd}` },
          { title: n('z'), key: 'z', align: 'right', width: 64, render: (_: unknown, i) => i.norm.z.toFixed(2) },
          { title: n('t'), key: 't', align: 'right', width: 64, render: (_: unknown, i) => i.norm.t.toFixed(1) },
          { title: n('band'), key: 'bar', width: 176, render: (_: unknown, i) => <NormBar z={i.norm.z} /> },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '8px 0 4px' }}>
        {k('normsHint')}
      </Typography.Paragraph>
      <div data-testid="group-norm-source">
        {sources.map((x) => (
          <Typography.Paragraph key={`${x.name}-${x.year}`} type="secondary" style={{ fontSize: 12, marginBottom: 4 }}>
            {n('normSource', { name: x.name, population: x.population, n: x.samplesize, year: x.year, source: x.source })}
          </Typography.Paragraph>
        ))}
      </div>
    </Section>
  );
}

function ReportBody({ r, scope }: { r: Report; scope: Scope }) {
  const k = useK();
  const before = r.previous;
  const level = useLevelLabel();
  const name = (i: { formname: string; name: string }) => `${i.formname} · ${i.name}`;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="group-report">
      <Participation r={r} />
      <Summary scope={scope} finished={r.participation.finished} />
      <Section title={k('distribution')} testId="group-distribution">
        {r.indicators.length ? (
          <LevelBars testId="group-distribution-chart" rows={r.indicators.map((i) => ({ name: name(i), levels: i.levels }))} />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noResults')} />
        )}
      </Section>
      <GroupNorms indicators={r.indicators} />
      {r.byteam.length > 1 && (
        <Section title={k('classes')} testId="group-classes">
          <LevelBars testId="group-classes-chart" rows={r.byteam} />
          <CompareTable rows={r.byteam} testId="group-classes-table" />
        </Section>
      )}
      {r.bygrade.length > 1 && (
        <Section title={k('grades')} testId="group-grades">
          <CompareTable rows={r.bygrade} testId="group-grades-table" />
        </Section>
      )}
      <Section title={k('trend')} testId="group-trend" extra={before && <Typography.Text type="secondary">{k('previousTask', { name: before.taskname })}</Typography.Text>}>
        {before && r.indicators.length ? (
          <BarChart
            testId="group-trend-chart"
            unit="%"
            categories={r.indicators.map(name)}
            series={[
              {
                name: before.taskname,
                colour: '#bfbfbf',
                data: r.indicators.map((i) => {
                  const b = before.indicators.find((x) => x.formcode === i.formcode && x.code === i.code);
                  return b ? severe(b.levels, b.total) : 0;
                }),
              },
              { name: r.task.taskname, colour: LevelColours[3], data: r.indicators.map((i) => severe(i.levels, i.total)) },
            ]}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noPrevious')} />
        )}
      </Section>
      <Section title={k('attention', { n: r.attention.length })} testId="group-attention">
        <DetailTable<Report['attention'][number]>
          rowKey="cusercode"
          dataSource={r.attention}
          empty={k('noAttention')}
          columns={[
            { title: k('realname'), dataIndex: 'realname' },
            { title: k('team'), dataIndex: 'teamname' },
            { title: k('form'), dataIndex: 'formname', render: (v: string, a) => <Link to={reportLink(a.reportid)}>{v}</Link> },
            { title: k('level'), dataIndex: 'level', render: (l: number) => <LevelTag level={l} label={level(l)} /> },
            {
              // A person whose worst level is normal is listed for a warning: say which (issue 28).
              title: k('why'),
              key: 'why',
              render: (_: unknown, a) => (
                <span data-testid={`group-why-${a.cusercode}`}>
                  {[
                    ...(a.level >= ATTENTION_LEVEL ? [k('whyLevel', { level: level(a.level) })] : []),
                    ...a.casekinds.map((kind) => k(`kinds.${kind as KeyOf<'task.groupReport.kinds'>}`)),
                  ].join(k('listSeparator'))}
                </span>
              ),
            },
            {
              title: k('case'),
              dataIndex: 'caseid',
              render: (id: string | null, a) =>
                id ? (
                  <Link to={caseLink(id)} data-testid={`group-case-${a.cusercode}`}>
                    {k(`caseStates.${(a.casestate ?? 'open') as KeyOf<'task.groupReport.caseStates'>}`)}
                  </Link>
                ) : (
                  '—'
                ),
            },
          ]}
        />
      </Section>
    </Space>
  );
}

export default function GroupReport() {
  const k = useK();
  const [params, setParams] = useSearchParams();
  const tasks = useAction(TASKS, { page: 1, pageSize: 200 });
  const taskid = params.get('taskid') ?? tasks.data?.rows[0]?.taskid ?? '';
  const teamid = params.get('teamid') || undefined;
  const scope: Scope = teamid ? { taskid, teamid } : { taskid };
  const report = useAction(REPORT, scope, { enabled: !!taskid });
  const choose = (next: Scope) => setParams(next.teamid ? { taskid: next.taskid, teamid: next.teamid } : { taskid: next.taskid }, { replace: true });

  if (!tasks.data) return <Waiting query={tasks} />;
  if (!tasks.data.rows.length) return <Empty style={{ padding: 64 }} description={k('noTasks')} data-testid="group-no-tasks" />;
  const r = report.data;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" data-testid="group-chooser">
        <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
          <Space wrap>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              value={taskid}
              onChange={(id: string) => choose({ taskid: id })}
              style={{ width: 280 }}
              options={tasks.data.rows.map((t) => ({ value: t.taskid, label: `${t.taskname} (${formatTime(t.startat).slice(0, 10)})` }))}
              aria-label={k('task')}
              data-testid="group-task"
            />
            <Select
              allowClear
              value={teamid}
              placeholder={k('allTeams')}
              onChange={(id?: string) => choose({ taskid, teamid: id })}
              style={{ width: 240 }}
              options={r?.teams.map((t) => ({ value: t.teamid, label: t.teamname })) ?? []}
              aria-label={k('team')}
              data-testid="group-team"
            />
          </Space>
          {r && <Actions r={r} scope={scope} />}
        </Space>
      </Card>
      {r ? <ReportBody r={r} scope={scope} /> : <Waiting query={report} />}
    </Space>
  );
}
