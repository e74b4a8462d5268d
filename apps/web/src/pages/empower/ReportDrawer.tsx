import { Alert, Descriptions, Drawer, Empty, Space, Spin, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { IndicatorResult } from '@xinli/contract';
import { call } from '../../api';
import { ErrorState } from '../../components/list';
import { LevelTag, MentalStateTag } from '../../components/levels';
import { formatTime } from '../../lib/format';
import { useLocalText } from '../../lib/options';
import { archiveLink } from '../../lib/populations';

/**
 * One report (first cut of the report pages): every indicator's score, band, level, colour,
 * interpretation and advice; the warnings; the answers; the form version it was scored on.
 */
export default function ReportDrawer({ reportid, onClose }: { reportid: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const text = useLocalText();
  const k = (key: string) => t(`empower.report.${key}`);
  const q = useQuery({
    queryKey: ['as.m.exam.getCUserReport', { reportid }],
    queryFn: () => call('as.m.exam.getCUserReport', { reportid: reportid! }),
    enabled: !!reportid,
  });
  const r = q.data;
  return (
    <Drawer open={!!reportid} onClose={onClose} size={760} title={k('title')} destroyOnHidden data-testid="report-drawer">
      {q.error ? (
        <ErrorState error={q.error} onRetry={() => q.refetch()} />
      ) : !r ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              { key: 'name', label: k('realname'), children: <Link to={archiveLink(r.appid, r.cusercode)}>{r.realname}</Link> },
              { key: 'app', label: t('common.appid'), children: r.appname },
              { key: 'form', label: k('formname'), children: r.formname },
              { key: 'version', label: k('version'), children: `v${r.version}` },
              { key: 'stage', label: k('stagename'), children: r.stagename || '—' },
              { key: 'time', label: k('createdat'), children: formatTime(r.createdat) },
              { key: 'state', label: k('mentalstate'), children: <MentalStateTag state={r.mentalstate} /> },
              { key: 'level', label: k('level'), children: r.level === null ? '—' : <LevelTag level={r.level} colour={r.colour} /> },
            ]}
          />
          {r.voided === 1 && <Alert type="error" showIcon title={text(r.voidreason)} />}
          {r.warnings.length > 0 && (
            <Alert
              type="warning"
              showIcon
              title={k('warning')}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {r.warnings.map((w, i) => (
                    <li key={i}>{text(w.reason)}</li>
                  ))}
                </ul>
              }
            />
          )}
          <Typography.Title level={5} style={{ margin: 0 }}>
            {k('indicators')}
          </Typography.Title>
          <Table<IndicatorResult>
            size="small"
            bordered
            rowKey="code"
            pagination={false}
            dataSource={r.indicators}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            columns={[
              { title: k('indicator'), key: 'name', render: (_, i) => text(i.name) },
              { title: k('score'), dataIndex: 'score', key: 'score', align: 'right', width: 80 },
              {
                title: k('band'),
                key: 'band',
                width: 120,
                render: (_, i) => (i.level === null ? '—' : <LevelTag level={i.level} colour={i.colour} label={text(i.label)} />),
              },
            ]}
            expandable={{
              rowExpandable: (i) => !!(text(i.interpretation) || text(i.advice)),
              expandedRowRender: (i) => (
                <Descriptions
                  size="small"
                  column={1}
                  items={[
                    { key: 'i', label: k('interpretation'), children: text(i.interpretation) || '—' },
                    { key: 'a', label: k('advice'), children: text(i.advice) || '—' },
                  ]}
                />
              ),
              defaultExpandAllRows: true,
            }}
          />
          <Typography.Title level={5} style={{ margin: 0 }}>
            {k('answers')}
          </Typography.Title>
          <Table
            size="small"
            bordered
            rowKey="no"
            pagination={false}
            dataSource={r.answers}
            columns={[
              { title: '#', dataIndex: 'no', key: 'no', width: 48 },
              { title: k('question'), key: 'q', render: (_, a) => text(a.question) },
              { title: k('answer'), dataIndex: 'answer', key: 'a', width: 200 },
              {
                title: k('score'),
                dataIndex: 'score',
                key: 's',
                width: 64,
                align: 'right',
                render: (s: number | null) => (s === null ? '—' : s),
              },
            ]}
          />
          <Tag>{r.reportid}</Tag>
        </Space>
      )}
    </Drawer>
  );
}
