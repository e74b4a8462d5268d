/**
 * Norms (常模库, /evaluating/scaleNorms, code 00055; issue 31 §2): per instrument and population
 * the mean and SD of each indicator, the sample, year and source, and the reliability that the
 * reliable change index uses. Every institution reads them on reports; the super account keeps
 * them here (the server refuses anyone else).
 */
import { Alert, Table, Tag, Typography } from 'antd';
import type { NormRow } from '@xinli/contract';
import { f, ListView, useEditDialog, useListPage } from '../../components/list';
import { usePermission } from '../../auth/session';
import { useT } from '../../i18n/useT';
import { useLocalText } from '../../lib/options';
import NormDialog from './NormDialog';

const LIST = 'as.m.assess.norm.getNormPage';

function Scales({ row }: { row: NormRow }) {
  const k = useT('evaluating.norms');
  return (
    <Table
      size="small"
      rowKey="code"
      pagination={false}
      dataSource={row.scales}
      style={{ maxWidth: 560 }}
      columns={[
        { title: k('code'), dataIndex: 'code', key: 'code', width: 110 },
        { title: k('name'), dataIndex: 'name', key: 'name' },
        { title: k('mean'), dataIndex: 'mean', key: 'mean', align: 'right', width: 90 },
        { title: k('sd'), dataIndex: 'sd', key: 'sd', align: 'right', width: 90 },
      ]}
    />
  );
}

export default function ScaleNorms() {
  const k = useT('evaluating.norms');
  const text = useLocalText();
  // Only the super account ('admin' role) edits norms; the server refuses anyone else.
  const { roles } = usePermission();
  const dialog = useEditDialog<NormRow>();
  const list = useListPage(LIST, { resource: 'evaluating.norms', filters: [f.text('formcode', { maxLength: 40, width: 160 })] });
  const col = list.colFor<NormRow>();
  const isSuper = roles.includes('admin');
  return (
    <ListView<NormRow>
      list={list}
      rowKey="normid"
      banner={!isSuper && <Alert type="info" showIcon title={k('superOnly')} style={{ marginBottom: 12 }} />}
      add={isSuper ? { action: 'as.m.assess.norm.insertNorm', onClick: dialog.add, testId: 'norm-add' } : undefined}
      expandable={{ expandedRowRender: (row: NormRow) => <Scales row={row} /> }}
      columns={[
        col.text('formname', { width: 180 }),
        col.text('name', {
          width: 220,
          render: (_: unknown, r) => (
            <span>
              {text(r.name)}
              {r.builtin && <Tag style={{ marginInlineStart: 6 }}>{k('builtin')}</Tag>}
            </span>
          ),
        }),
        col.text('population', { width: 120, render: (_: unknown, r) => text(r.population) }),
        col.text('samplesize', { width: 90, align: 'right' }),
        col.text('year', { width: 70, align: 'right' }),
        col.text('isdefault', { width: 70, render: (v: number) => (v ? <Tag color="blue">{k('isdefault')}</Tag> : '—') }),
        col.text('change', {
          width: 170,
          render: (_: unknown, r) =>
            r.change ? k('changeSummary', { code: r.change.code, r: r.change.reliability, cutoff: r.change.cutoff ?? '—' }) : <Typography.Text type="secondary">{k('changeNone')}</Typography.Text>,
        }),
        col.text('source', { render: (v: string) => <Typography.Paragraph ellipsis={{ rows: 2, tooltip: v }} style={{ marginBottom: 0 }}>{v}</Typography.Paragraph> }),
        ...(isSuper
          ? [
              col.actions(
                (r) => [
                  { key: 'edit', action: 'as.m.assess.norm.updateNorm', onClick: () => dialog.edit(r), testId: `norm-edit-${r.normid}` },
                  ...(r.builtin ? [] : [col.remove('as.m.assess.norm.deleteNorm', { normid: r.normid }, text(r.name))]),
                ],
                { width: 130 },
              ),
            ]
          : []),
      ]}
    >
      <NormDialog {...dialog.props} />
    </ListView>
  );
}
