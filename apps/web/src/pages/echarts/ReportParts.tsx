/**
 * The sections of the report page: the indicator results, the answers, and the person's
 * earlier results of the same form (a trend chart per indicator, ECharts loaded lazily).
 */
import { lazy, Suspense, useMemo } from 'react';
import { Card, Col, Descriptions, Empty, Row, Spin, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { IndicatorResult, ReportDetail } from '@xinli/contract';
import { call } from '../../api';
import { useAccess } from '../../components/access';
import { ErrorState } from '../../components/list';
import { LevelTag, useLevelLabel } from '../../components/levels';
import { useLocalText } from '../../lib/options';
import { trendOf } from './report-data';

const TrendChart = lazy(() => import('../../components/charts/TrendChart'));

export const useReportText = () => {
  const { t } = useTranslation();
  return (key: string, o?: Record<string, unknown>) => t(`echarts.report.${key}`, o ?? {});
};

/** Every indicator with its score, band (in the band's colour), level, interpretation and advice. */
export function IndicatorSection({ indicators }: { indicators: IndicatorResult[] }) {
  const k = useReportText();
  const text = useLocalText();
  const levelLabel = useLevelLabel();
  return (
    <Card size="small" title={k('indicators')} data-testid="report-indicators">
      <Table<IndicatorResult>
        size="small"
        bordered
        rowKey="code"
        pagination={false}
        dataSource={indicators}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noIndicators')} /> }}
        scroll={{ x: 'max-content' }}
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
          rowExpandable: (i) => !!(text(i.interpretation) || text(i.advice)),
          expandedRowRender: (i) => (
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'i', label: k('interpretation'), children: <span style={{ whiteSpace: 'pre-wrap' }}>{text(i.interpretation) || '—'}</span> },
                { key: 'a', label: k('advice'), children: <span style={{ whiteSpace: 'pre-wrap' }}>{text(i.advice) || '—'}</span> },
              ]}
            />
          ),
          defaultExpandAllRows: true,
        }}
      />
    </Card>
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
  const { can } = useAccess();
  const allowed = can('as.m.cuser.getCUserArchive');
  const q = useQuery({
    queryKey: ['as.m.cuser.getCUserArchive', { cusercode: report.cusercode }],
    queryFn: () => call('as.m.cuser.getCUserArchive', { cusercode: report.cusercode }),
    enabled: allowed,
  });
  const series = useMemo(
    () => (q.data ? trendOf(q.data.reports, report.formcode, report.createdat) : []),
    [q.data, report.formcode, report.createdat],
  );
  const body = !allowed ? (
    <Typography.Text type="secondary">{k('trendDenied')}</Typography.Text>
  ) : q.error ? (
    <ErrorState error={q.error} onRetry={() => q.refetch()} />
  ) : !q.data ? (
    <Spin style={{ display: 'block', padding: 32 }} />
  ) : series.every((s) => s.points.length < 2) ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noTrend')} />
  ) : (
    <Suspense fallback={<Spin style={{ display: 'block', padding: 32 }} />}>
      <Row gutter={[16, 16]}>
        {series.map((s) => (
          <Col key={s.code} xs={24} xl={series.length > 1 ? 12 : 24}>
            <Typography.Text strong>{s.title}</Typography.Text>
            <TrendChart title={s.title} points={s.points} testId={`report-trend-${s.code}`} />
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
