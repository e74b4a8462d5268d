/**
 * The report list's PDF zip (issue 27 item 9). Up to REPORT_ZIP_INLINE_MAX reports download at
 * once; a larger filter is exported in the background: the button queues it and opens the list of
 * the caller's exports, which shows each one's progress (asked again while one is queued or
 * printing), downloads a finished zip and cancels one still waiting or printing.
 */
import { useState } from 'react';
import { App as AntApp, Button, Drawer, Empty, Progress, Space, Tag, Typography } from 'antd';
import { FilePdfOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REPORT_ZIP_INLINE_MAX, type ActionInput, type ReportExportRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { useAccess } from '../../components/access';
import { Loaded, RowItem, RowList } from '../../components/list';
import { ExportButton } from '../../components/transfer';
import { formatTime } from '../../lib/format';
import { useT } from '../../i18n/useT';

const PAGE = 'as.m.exam.getReportPdfZipPage';
const QUEUE = 'as.m.exam.queueReportPdfZip';
const POLL_MS = 2000;
const busy = (r: ReportExportRow) => r.state === 'queued' || r.state === 'running';
const STATE_COLOUR: Record<ReportExportRow['state'], string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
};

type Filter = ActionInput<'as.m.exam.exportReportPdfZip'>;

export default function PdfZipExport({ filter, total }: { filter: Filter; total: number }) {
  const { t } = useTranslation();
  const k = useT('empower.report.zip');
  const { can } = useAccess();
  const { message } = AntApp.useApp();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [queuing, setQueuing] = useState(false);
  const list = useAction(
    PAGE,
    { page: 1, pageSize: 20 },
    { enabled: open, refetchInterval: (q) => (q.state.data?.rows.some(busy) ? POLL_MS : false) },
  );

  const queue = async () => {
    setQueuing(true);
    try {
      const res = await call(QUEUE, filter);
      void message.success(k('queued', { count: res.count }));
      setOpen(true);
      await client.invalidateQueries({ queryKey: [PAGE] });
    } catch {
      // The request client has shown why (busy, too many, no Chromium).
    } finally {
      setQueuing(false);
    }
  };
  const cancel = async (exportid: string) => {
    await call('as.m.exam.cancelReportPdfZip', { exportid }).catch(() => undefined);
    await client.invalidateQueries({ queryKey: [PAGE] });
  };

  const background = total > REPORT_ZIP_INLINE_MAX;
  return (
    <>
      {background ? (
        can(QUEUE) && (
          <Button icon={<FilePdfOutlined />} loading={queuing} onClick={() => void queue()} data-testid="export-pdf-zip-queue">
            {k('background')}
          </Button>
        )
      ) : (
        <ExportButton
          action="as.m.exam.exportReportPdfZip"
          input={filter}
          filename={`${t('empower.report.fileZip')}.zip`}
          icon={<FilePdfOutlined />}
          disabled={total === 0}
          data-testid="export-pdf-zip"
        >
          {t('empower.report.exportZip')}
        </ExportButton>
      )}
      {can(PAGE) && (
        <Button icon={<UnorderedListOutlined />} onClick={() => setOpen(true)} data-testid="pdf-exports">
          {k('list')}
        </Button>
      )}
      <Drawer open={open} onClose={() => setOpen(false)} title={k('list')} size={480} destroyOnHidden data-testid="pdf-exports-drawer">
        <Typography.Paragraph type="secondary">{k('hint', { max: REPORT_ZIP_INLINE_MAX })}</Typography.Paragraph>
        <Loaded query={list}>
          {({ rows }) =>
            rows.length === 0 ? (
              <Empty description={k('empty')} />
            ) : (
              <RowList>
                {rows.map((r) => (
                  <RowItem
                    key={r.exportid}
                    data-testid={`pdf-export-${r.exportid}`}
                    actions={[
                      r.state === 'done' && (
                        <ExportButton
                          key="get"
                          action="as.m.exam.downloadReportPdfZip"
                          input={{ exportid: r.exportid }}
                          filename={r.filename}
                          size="small"
                          type="link"
                        >
                          {k('download')}
                        </ExportButton>
                      ),
                      busy(r) && can('as.m.exam.cancelReportPdfZip') && (
                        <Button
                          key="cancel"
                          size="small"
                          type="link"
                          danger
                          onClick={() => void cancel(r.exportid)}
                          data-testid={`pdf-export-cancel-${r.exportid}`}
                        >
                          {k('cancel')}
                        </Button>
                      ),
                    ]}
                    detail={
                      <>
                        {busy(r) ? (
                          <Progress percent={r.progress} size="small" format={() => `${r.printed}/${r.count}`} />
                        ) : (
                          <span>{formatTime(r.finishedat ?? r.createdat)}</span>
                        )}
                        {r.state === 'done' && r.expiresat && <div>{k('until', { time: formatTime(r.expiresat) })}</div>}
                        {r.error && <Typography.Text type="danger">{r.error}</Typography.Text>}
                      </>
                    }
                  >
                    <Space size={8}>
                      <span>{k('count', { count: r.count })}</span>
                      <Tag color={STATE_COLOUR[r.state]}>{k(`state.${r.state}`)}</Tag>
                    </Space>
                  </RowItem>
                ))}
              </RowList>
            )
          }
        </Loaded>
      </Drawer>
    </>
  );
}
