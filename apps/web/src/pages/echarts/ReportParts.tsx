/**
 * The sections of the report page: who and what (basics, warnings), the indicator results, the
 * answers, the person's earlier results of the same form (a trend chart per indicator, ECharts
 * loaded lazily) and staff comments; the standard page and the custom report's page share them.
 */
import { lazy, Suspense, useMemo } from 'react';
import { Alert, App as AntApp, Button, Card, Col, Descriptions, Empty, Form, Input, Row, Spin, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enumLabel, Gender, LevelColours, reportActions, type IndicatorResult, type ReportDetail } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { Waiting } from '../../components/list';
import { LevelTag, MentalStateTag, useLevelLabel } from '../../components/levels';
import { ContractFields, Field } from '../../components/form';
import { formatTime } from '../../lib/format';
import { useLang, useLocalText } from '../../lib/options';
import { archiveLink } from '../../features/links';
import { trendOf } from './report-data';
import { useT } from '../../i18n/useT';


const TrendChart = lazy(() => import('../../components/charts/TrendChart'));
const Phq9Chart = lazy(() => import('../../components/charts/Phq9Chart'));

export const useReportText = () => {
  return useT('echarts.report');
};

/** Who was assessed, on what and when: the person (linked to the archive), the plan, the state, the highest level. */
export function ReportBasics({ report }: { report: ReportDetail }) {
  const k = useReportText();
  const lang = useLang();
  // Phone and ID come masked (138****5678) unless the caller holds 0000801, the full-identity
  // permission: the server applies the kit's mask rule, so the page shows what it is given.
  const person = useAction('as.m.assess.getCUser', { cusercode: report.cusercode }, { staleTime: 60_000 }).data;
  const gender = Gender.some((g) => g.value === report.gender) ? enumLabel(Gender, report.gender, lang) : '—';
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, lg: 3, xxl: 4 }}
      items={[
        {
          key: 'name',
          label: k('realname'),
          children: (
            <Link to={archiveLink(report.appid, report.cusercode)} data-testid="report-person">
              {report.realname}
            </Link>
          ),
        },
        { key: 'gender', label: k('gender'), children: gender },
        ...(person
          ? [
              { key: 'phone', label: k('phonenumber'), children: <span data-testid="report-phone">{person.phonenumber || '—'}</span> },
              { key: 'idcard', label: k('idcard'), children: <span data-testid="report-idcard">{person.idcard || '—'}</span> },
            ]
          : []),
        { key: 'app', label: k('appname'), children: report.appname || '—' },
        { key: 'ins', label: k('insname'), children: report.insname || '—' },
        { key: 'plan', label: k('planname'), children: report.planname || '—' },
        { key: 'stage', label: k('stagename'), children: report.stagename || '—' },
        { key: 'time', label: k('createdat'), children: formatTime(report.createdat) },
        { key: 'state', label: k('mentalstate'), children: <MentalStateTag state={report.mentalstate} /> },
        { key: 'level', label: k('level'), children: report.level === null ? '—' : <LevelTag level={report.level} colour={report.colour} /> },
        { key: 'id', label: k('reportid'), children: <Typography.Text copyable>{report.reportid}</Typography.Text> },
      ]}
    />
  );
}

/** The void notice and the warnings with their reasons. */
export function ReportAlerts({ report: r }: { report: ReportDetail }) {
  const k = useReportText();
  const text = useLocalText();
  return (
    <>
      {r.voided === 1 && <Alert type="error" showIcon title={k('voided')} description={text(r.voidreason)} />}
      {r.warnings.length > 0 && (
        <Alert
          type="warning"
          showIcon
          title={k('warnings')}
          data-testid="report-warnings"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {r.warnings.map((w, i) => (
                <li key={i}>{text(w.reason)}</li>
              ))}
            </ul>
          }
        />
      )}
    </>
  );
}

/**
 * Every indicator with its score, band (in the band's colour), level, interpretation and advice.
 * The custom report's page (`custom`) shows the scores' bar chart, as its print does, and its
 * advice in a section of its own.
 */
export function IndicatorSection({
  indicators,
  convention,
  custom = false,
}: {
  indicators: IndicatorResult[];
  convention?: ReportDetail['convention'];
  custom?: boolean;
}) {
  const k = useReportText();
  const text = useLocalText();
  const levelLabel = useLevelLabel();
  const advice = !custom;
  return (
    <Card size="small" title={k('indicators')} data-testid="report-indicators">
      {convention && <ConventionNote convention={convention} />}
      {custom && indicators.length > 1 && <IndicatorBars indicators={indicators} />}
      <Table<IndicatorResult>
        size="small"
        bordered
        rowKey="code"
        pagination={false}
        dataSource={indicators}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noIndicators')} /> }}
        columns={[
          {
            title: k('indicator'),
            key: 'name',
            render: (_, i) => (i.kind === 'total' ? <Typography.Text strong>{text(i.name)}</Typography.Text> : text(i.name)),
          },
          { title: k('score'), dataIndex: 'score', key: 'score', align: 'right', width: 90 },
          {
            title: k('band'),
            key: 'band',
            width: 160,
            render: (_, i) => (i.level === null ? '—' : <LevelTag level={i.level} colour={i.colour} label={text(i.label)} />),
          },
          {
            title: k('levelName'),
            key: 'level',
            width: 130,
            render: (_, i) => (i.level === null ? '—' : levelLabel(i.level)),
          },
        ]}
        expandable={{
          rowExpandable: (i) => !!(text(i.interpretation) || (advice && text(i.advice))),
          expandedRowRender: (i) => (
            <Descriptions
              size="small"
              column={1}
              items={[
                {
                  key: 'i',
                  label: k('interpretation'),
                  children: (
                    <span style={{ whiteSpace: 'pre-wrap' }} data-testid={`report-interpretation-${i.code}`}>
                      {text(i.interpretation) || '—'}
                    </span>
                  ),
                },
                ...(advice ? [{ key: 'a', label: k('advice'), children: <span style={{ whiteSpace: 'pre-wrap' }}>{text(i.advice) || '—'}</span> }] : []),
              ]}
            />
          ),
          defaultExpandAllRows: true,
        }}
      />
    </Card>
  );
}

/** The indicators' scores as bars in their bands' colours, longest the highest score (the print's chart). */
function IndicatorBars({ indicators }: { indicators: IndicatorResult[] }) {
  const k = useReportText();
  const text = useLocalText();
  const top = Math.max(1, ...indicators.map((i) => i.score));
  return (
    <div className="report-bars" role="img" aria-label={k('custom.chart')} data-testid="report-indicator-chart">
      {indicators.map((i) => (
        <div key={i.code} className="report-bar">
          <span className="report-bar-name">{text(i.name)}</span>
          <span className="report-bar-track">
            <span
              className="report-bar-fill"
              style={{ width: `${(Math.max(0, i.score) / top) * 100}%`, background: i.colour || (i.level === null ? '#9ca3af' : LevelColours[i.level]) }}
            />
          </span>
          <span className="report-bar-score">{i.score}</span>
        </div>
      ))}
    </div>
  );
}

/** The scoring convention the report was scored with (SDS/SAS cut-offs and rounding) and its source. */
function ConventionNote({ convention }: { convention: NonNullable<ReportDetail['convention']> }) {
  const k = useReportText();
  const text = useLocalText();
  return (
    <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }} data-testid="report-convention">
      {k('convention', { name: text(convention.name) })}
      {convention.source && (
        <>
          <br />
          {k('conventionSource', { source: convention.source })}
        </>
      )}
    </Typography.Paragraph>
  );
}

/** The item answers of the report (what was chosen, and its score). */
export function AnswerSection({ answers }: { answers: ReportDetail['answers'] }) {
  const k = useReportText();
  const text = useLocalText();
  return (
    <Card size="small" title={k('answers')} data-testid="report-answers">
      <Table
        size="small"
        bordered
        rowKey="no"
        pagination={answers.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        dataSource={answers}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noAnswers')} /> }}
        columns={[
          { title: '#', dataIndex: 'no', key: 'no', width: 56 },
          { title: k('question'), key: 'q', render: (_, a) => text(a.question) },
          { title: k('answer'), dataIndex: 'answer', key: 'a', width: 240 },
          {
            title: k('score'),
            dataIndex: 'score',
            key: 's',
            width: 80,
            align: 'right',
            render: (s: number | null) => (s === null ? '—' : s),
          },
        ]}
      />
    </Card>
  );
}

/** The person's results of the same form up to this report, one chart per indicator. */
export function TrendSection({ report }: { report: ReportDetail }) {
  const k = useReportText();
  const text = useLocalText();
  const series = useMemo(() => trendOf(report, text), [report, text]);
  const body =
    report.trend.length < 2 ? (
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noTrend')} />
    ) : (
      <Suspense fallback={<Spin style={{ display: 'block', padding: 32 }} />}>
        <Row gutter={[16, 16]}>
          {series.map((s) => (
            // Many indicators (MHT has ten): two or three small charts a row, not one long column.
            <Col key={s.code} xs={24} md={series.length > 1 ? 12 : 24} xxl={series.length > 2 ? 8 : series.length > 1 ? 12 : 24}>
              <Typography.Text strong>{s.title}</Typography.Text>
              <TrendChart title={s.title} points={s.points} height={series.length > 2 ? 180 : 220} testId={`report-trend-${s.code}`} />
            </Col>
          ))}
        </Row>
      </Suspense>
    );
  return (
    <Card size="small" title={k('trend')} extra={<Typography.Text type="secondary">{k('trendHint')}</Typography.Text>} data-testid="report-trend">
      {body}
    </Card>
  );
}

/** The PHQ-9 levels over time and the item-9 history of the person (PHQ-9 and PHQ-A reports). */
export function Phq9Section({ report }: { report: ReportDetail }) {
  const k = useReportText();
  const levelLabel = useLevelLabel();
  const { can } = useAccess();
  const q = useAction('as.m.exam.getPHQ9ChartsData', { cusercode: report.cusercode });
  if (!can('as.m.exam.getPHQ9ChartsData')) return null;
  const points = (q.data ?? []).filter((p) => p.createdat <= report.createdat);
  return (
    <Card size="small" title={k('phq9')} extra={<Typography.Text type="secondary">{k('phq9Hint')}</Typography.Text>} data-testid="report-phq9">
      {!q.data ? (
        <Waiting query={q} />
      ) : points.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noTrend')} />
      ) : (
        <Suspense fallback={<Spin style={{ display: 'block', padding: 32 }} />}>
          <Phq9Chart points={points} levelName={levelLabel} titles={{ total: k('phq9Levels'), item9: k('phq9Item9') }} />
        </Suspense>
      )}
    </Card>
  );
}

/** Staff comments: the history (who and when) and a box to add one. */
export function CommentSection({ report }: { report: ReportDetail }) {
  const k = useReportText();
  const { message } = AntApp.useApp();
  const { can } = useAccess();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ comment: string }>();
  const add = useMutation({
    mutationFn: (comment: string) => call('as.m.exam.updateReport', { reportid: report.reportid, comment }),
    onSuccess: async () => {
      form.resetFields();
      message.success(k('commentAdded'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['as.m.exam.getCUserReport'] }),
        queryClient.invalidateQueries({ queryKey: ['as.m.exam.getReportDocument'] }),
      ]);
    },
  });
  return (
    <Card size="small" title={k('comments')} data-testid="report-comments">
      {report.comments.length === 0 ? (
        <Typography.Text type="secondary">{k('noComments')}</Typography.Text>
      ) : (
        <ol className="report-comments">
          {report.comments.map((c) => (
            <li key={c.commentid} data-testid="report-comment">
              <div className="report-comment-meta">
                <Typography.Text strong>{c.username || c.userid}</Typography.Text>
                <Typography.Text type="secondary">{formatTime(c.createdat)}</Typography.Text>
              </div>
              <div style={{ whiteSpace: 'pre-wrap' }}>{c.comment}</div>
            </li>
          ))}
        </ol>
      )}
      {can('as.m.exam.updateReport') && (
        <ContractFields action={reportActions['as.m.exam.updateReport']} resource="echarts.report">
          <Form form={form} layout="vertical" onFinish={(v) => add.mutate(v.comment)} style={{ marginTop: 12 }}>
            <Field name="comment" label={k('addComment')}>
              <Input.TextArea rows={3} placeholder={k('commentPlaceholder')} showCount data-testid="report-comment-input" />
            </Field>
            <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="report-comment-add">
              {k('addComment')}
            </Button>
          </Form>
        </ContractFields>
      )}
    </Card>
  );
}
