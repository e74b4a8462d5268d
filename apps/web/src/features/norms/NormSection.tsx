/**
 * Norms and reliable change (issue 31 §2, §3) as the console shows them: a report's factors
 * against its form's default norm (z, T and a bar against the norm band, the source in a
 * footnote), and the label of a change between two consecutive reports of a person and form.
 */
import { Card, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ReliableChange, ReportDetail, ReportNorm } from '@xinli/contract';
import { useT } from '../../i18n/useT';

const LABEL_COLOURS = { improved: 'green', deteriorated: 'red', unchanged: 'default' } as const;

/** The reliable-change label of one change, with its index; the cut-off crossing as a second tag. */
export function ChangeTags({ change, testId }: { change: ReliableChange | null; testId?: string }) {
  const k = useT('echarts.norms');
  if (!change) return <>—</>;
  return (
    <Space size={4} wrap data-testid={testId}>
      <Tooltip title={k('changeDetail', { rci: change.rci.toFixed(2), from: change.from, to: change.to })}>
        <Tag color={LABEL_COLOURS[change.label]}>
          {k(change.label)} · RCI {change.rci.toFixed(2)}
        </Tag>
      </Tooltip>
      {change.crossing && (
        <Tooltip title={k(change.crossing, { cutoff: change.cutoff ?? '' })}>
          <Tag color={change.crossing === 'into' ? 'volcano' : 'cyan'}>{k(change.crossing, { cutoff: change.cutoff ?? '' })}</Tag>
        </Tooltip>
      )}
    </Space>
  );
}

/** A z bar from −3 to +3 SD: the norm band (M ± 1 SD) shaded, the score a dot. */
export function NormBar({ z }: { z: number }) {
  const x = (v: number) => 6 + ((Math.max(-3, Math.min(3, v)) + 3) / 6) * 148;
  const colour = z > 1 ? '#d0021b' : z < -1 ? '#4a90e2' : '#417505';
  return (
    <svg width="160" height="16" viewBox="0 0 160 16" role="img" aria-label={`z ${z}`}>
      <line x1="6" y1="8" x2="154" y2="8" stroke="#d1d5db" />
      <rect x={x(-1)} y="2" width={x(1) - x(-1)} height="12" fill="#e5e7eb" />
      <line x1={x(0)} y1="1" x2={x(0)} y2="15" stroke="#9ca3af" />
      <circle cx={x(z)} cy="8" r="5" fill={colour} />
    </svg>
  );
}

function NormTable({ norm }: { norm: ReportNorm }) {
  const k = useT('echarts.norms');
  return (
    <Table<ReportNorm['rows'][number]>
      size="small"
      bordered
      rowKey="code"
      pagination={false}
      dataSource={norm.rows}
      scroll={{ x: 'max-content' }}
      columns={[
        { title: k('indicator'), dataIndex: 'name', key: 'name' },
        { title: k('score'), dataIndex: 'score', key: 'score', align: 'right', width: 80 },
        { title: k('norm'), key: 'norm', align: 'right', width: 130, render: (_, r) => `${r.mean} ± ${r.sd}` },
        { title: k('z'), dataIndex: 'z', key: 'z', align: 'right', width: 70, render: (v: number) => v.toFixed(2) },
        { title: k('t'), dataIndex: 't', key: 't', align: 'right', width: 70, render: (v: number) => v.toFixed(1) },
        { title: k('band'), key: 'bar', width: 180, render: (_, r) => <NormBar z={r.z} /> },
      ]}
    />
  );
}

/** The report page's norm card: the table, this report's change, and the sources as footnotes. */
export default function NormSection({ report }: { report: ReportDetail }) {
  const k = useT('echarts.norms');
  const norm = report.norm ?? null;
  const change = report.trend.at(-1)?.change ?? null;
  if (!norm && !change) return null;
  return (
    <Card size="small" title={k('title')} extra={<Typography.Text type="secondary">{k('hint')}</Typography.Text>} data-testid="report-norms">
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {norm ? <NormTable norm={norm} /> : <Typography.Text type="secondary">{k('noNorm')}</Typography.Text>}
        <Space size={8} wrap data-testid="report-change">
          <Typography.Text strong>{k('change')}</Typography.Text>
          {change ? <ChangeTags change={change} /> : <Typography.Text type="secondary">{k('firstResult')}</Typography.Text>}
        </Space>
        <div className="norm-footnotes" data-testid="report-norm-source">
          {norm && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 4 }}>
              {k('normSource', { name: norm.name, population: norm.population, n: norm.samplesize, year: norm.year, source: norm.source })}
            </Typography.Paragraph>
          )}
          {change && (
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 0 }}>
              {k('rciSource', { r: change.reliability, sd: change.sd, source: change.reliabilitysource })}
            </Typography.Paragraph>
          )}
        </div>
      </Space>
    </Card>
  );
}
