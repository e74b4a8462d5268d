import { useMemo, useState } from 'react';
import { Card, Col, Empty, Row, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReportDetail, ReportRow } from '@xinli/contract';
import { call } from '../../api';
import { ErrorState } from '../../components/list';
import { LevelTag, MentalStateTag } from '../../components/levels';
import TrendChart, { type TrendPoint } from '../../components/charts/TrendChart';
import { formatTime } from '../../lib/format';
import { useLocalText } from '../../lib/options';
import ReportDrawer from '../empower/ReportDrawer';

/** How many of the newest reports the trends read (each is one audited report read). */
const TREND_REPORTS = 30;

interface Series {
  key: string;
  title: string;
  points: TrendPoint[];
}

/** Indicator series per form: for each form, one series per indicator over the reports. */
function seriesByForm(details: ReportDetail[], text: (t: { zh: string; en: string } | null) => string) {
  const forms = new Map<string, { formname: string; series: Map<string, Series> }>();
  for (const d of details) {
    if (d.voided) continue;
    const form = forms.get(d.formcode) ?? { formname: d.formname, series: new Map<string, Series>() };
    forms.set(d.formcode, form);
    for (const i of d.indicators) {
      const s = form.series.get(i.code) ?? { key: `${d.formcode}-${i.code}`, title: text(i.name), points: [] };
      s.points.push({ time: d.createdat, score: i.score, level: i.level, colour: i.colour, band: text(i.label) });
      form.series.set(i.code, s);
    }
  }
  return [...forms.entries()].map(([formcode, f]) => ({ formcode, formname: f.formname, series: [...f.series.values()] }));
}

/** A person's reports over time: one trend chart per indicator, the warnings, and the report list. */
export default function PersonReports({ cusercode }: { cusercode: string }) {
  const { t } = useTranslation();
  const text = useLocalText();
  const k = (key: string) => t(`archives.archive.${key}`);
  const r = (key: string) => t(`empower.report.${key}`);
  const [open, setOpen] = useState<string | null>(null);
  const input = { cusercode, page: 1, pageSize: 200 };
  const list = useQuery({
    queryKey: ['as.m.exam.getCUserReportPageList', input],
    queryFn: () => call('as.m.exam.getCUserReportPageList', input),
  });
  const rows = list.data?.rows ?? [];
  const newest = rows.slice(0, TREND_REPORTS);
  const details = useQueries({
    queries: newest.map((row) => ({
      queryKey: ['as.m.exam.getCUserReport', { reportid: row.reportid }],
      queryFn: () => call('as.m.exam.getCUserReport', { reportid: row.reportid }),
      staleTime: 5 * 60_000,
    })),
  });
  const loaded = details.map((d) => d.data).filter((d): d is ReportDetail => !!d);
  const forms = useMemo(() => seriesByForm(loaded, text), [loaded.length, cusercode]); // eslint-disable-line react-hooks/exhaustive-deps
  const warnings = loaded.flatMap((d) => d.warnings.map((w, i) => ({ key: `${d.reportid}-${i}`, time: d.createdat, form: d.formname, reason: text(w.reason), level: w.level })));

  if (list.error) return <ErrorState error={list.error} onRetry={() => list.refetch()} />;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title={k('trend')} loading={list.isLoading || (newest.length > 0 && loaded.length === 0)} data-testid="archive-trends">
        {forms.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noTrend')} />
        ) : (
          <Tabs
            items={forms.map((f) => ({
              key: f.formcode,
              label: f.formname,
              children: (
                <Row gutter={[16, 16]}>
                  {f.series.map((s) => (
                    <Col key={s.key} xs={24} xl={f.series.length > 1 ? 12 : 24}>
                      <Typography.Text strong>{s.title}</Typography.Text>
                      <TrendChart title={s.title} points={s.points} testId={`trend-${s.key}`} />
                    </Col>
                  ))}
                </Row>
              ),
            }))}
          />
        )}
      </Card>
      <Card size="small" title={k('warnings')}>
        {warnings.length === 0 ? (
          <Typography.Text type="secondary">{k('noWarnings')}</Typography.Text>
        ) : (
          <ul className="archive-warnings">
            {warnings.map((w) => (
              <li key={w.key}>
                <Tag color="error">{formatTime(w.time)}</Tag>
                {w.form}：{w.reason}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card size="small" title={`${k('reports')}（${list.data?.total ?? 0}）`}>
        <Table<ReportRow>
          size="small"
          bordered
          rowKey="reportid"
          loading={list.isFetching}
          dataSource={rows}
          pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noReports')} /> }}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: r('createdat'), dataIndex: 'createdat', key: 'createdat', width: 150, render: (v: string) => formatTime(v) },
            { title: r('formname'), dataIndex: 'formname', key: 'formname' },
            { title: r('stagename'), dataIndex: 'stagename', key: 'stagename', render: (v: string) => v || '—' },
            { title: r('level'), key: 'level', width: 100, render: (_, row) => (row.level === null ? '—' : <LevelTag level={row.level} colour={row.colour} />) },
            { title: r('mentalstate'), dataIndex: 'mentalstate', key: 'ms', width: 120, render: (v: number) => <MentalStateTag state={v} /> },
            { title: t('common.actions'), key: 'a', width: 80, render: (_, row) => <a onClick={() => setOpen(row.reportid)}>{r('view')}</a> },
          ]}
        />
      </Card>
      <ReportDrawer reportid={open} onClose={() => setOpen(null)} />
    </Space>
  );
}
