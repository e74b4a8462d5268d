import { useMemo } from 'react';
import { Card, Col, Empty, Row, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PersonReport } from '@xinli/contract';
import { LevelTag, MentalStateTag } from '../../components/levels';
import TrendChart from '../../components/charts/TrendChart';
import { formatTime } from '../../lib/format';
import { reportLink } from '../../features/links';
import { useT } from '../../i18n/useT';
import { ChangeTags } from '../../features/norms/NormSection';

/** For each form, one series per indicator over the person's reports (oldest first). */
export function seriesByForm(reports: PersonReport[]) {
  const forms = new Map<
    string,
    {
      formname: string;
      series: Map<string, { key: string; title: string; points: { time: string; score: number; level: number | null; colour: string }[] }>;
    }
  >();
  for (const r of reports) {
    const form = forms.get(r.formcode) ?? { formname: r.formname, series: new Map() };
    forms.set(r.formcode, form);
    for (const i of r.indicators) {
      const s = form.series.get(i.code) ?? { key: `${r.formcode}-${i.code}`, title: i.name, points: [] };
      s.points.push({ time: r.createdat, score: i.score, level: i.level, colour: i.colour });
      form.series.set(i.code, s);
    }
  }
  return [...forms.entries()].map(([formcode, f]) => ({ formcode, formname: f.formname, series: [...f.series.values()] }));
}

/** A person's reports over time: one trend chart per indicator, the warnings, and the report list. */
export default function PersonReports({ reports }: { reports: PersonReport[] }) {
  const { t } = useTranslation();
  const k = useT('archives.archive');
  const r = useT('empower.report');
  const n = useT('echarts.norms');
  const forms = useMemo(() => seriesByForm(reports), [reports]);
  const newestFirst = useMemo(() => [...reports].reverse(), [reports]);
  const warned = newestFirst.filter((x) => x.warning);
  const topLevel = (x: PersonReport) =>
    x.indicators.reduce<number | null>((m, i) => (i.level === null ? m : Math.max(m ?? 0, i.level)), null);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small" title={k('trend')} data-testid="archive-trends">
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
        {warned.length === 0 ? (
          <Typography.Text type="secondary">{k('noWarnings')}</Typography.Text>
        ) : (
          <Space orientation="vertical" size={4}>
            {warned.map((w) => (
              <span key={w.reportid}>
                <Tag color="error">{formatTime(w.createdat)}</Tag>
                <Link to={reportLink(w.reportid)}>{w.formname}</Link>
              </span>
            ))}
          </Space>
        )}
      </Card>
      <Card size="small" title={t('common.bracketed', { text: k('reports'), detail: reports.length })}>
        <Table<PersonReport>
          size="small"
          bordered
          rowKey="reportid"
          dataSource={newestFirst}
          pagination={reports.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={k('noReports')} /> }}
          scroll={{ x: 'max-content' }}
          data-testid="archive-reports"
          columns={[
            { title: r('createdat'), dataIndex: 'createdat', key: 'createdat', width: 150, render: (v: string) => formatTime(v) },
            { title: r('formname'), dataIndex: 'formname', key: 'formname' },
            {
              title: r('level'),
              key: 'level',
              width: 100,
              render: (_, row) => {
                const l = topLevel(row);
                return l === null ? '—' : <LevelTag level={l} />;
              },
            },
            {
              title: r('mentalstate'),
              dataIndex: 'mentalstate',
              key: 'ms',
              width: 120,
              render: (v: number) => <MentalStateTag state={v} />,
            },
            {
              title: n('change'),
              key: 'change',
              render: (_, row) => <ChangeTags change={row.change ?? null} testId={`archive-change-${row.reportid}`} />,
            },
            {
              title: r('warning'),
              dataIndex: 'warning',
              key: 'w',
              width: 70,
              render: (v: boolean) => (v ? <Tag color="error">{t('common.yes')}</Tag> : '—'),
            },
            {
              title: t('common.actions'),
              key: 'a',
              width: 80,
              render: (_, row) => <Link to={reportLink(row.reportid)}>{r('view')}</Link>,
            },
          ]}
        />
      </Card>
    </Space>
  );
}
