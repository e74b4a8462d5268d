import { useState } from 'react';
import { Alert, App, Button } from 'antd';
import { RobotOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { WrittenReportPersonRow } from '@xinli/contract';
import { Can } from '../../components/access';
import { f, ListView, useListPage } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { anyBusy, POLL_MS, rowActions, useWriterText, WRITTEN_STATES, WrittenStateTag, type RowActionKey } from './written-state';
import WrittenReportDrawer from './WrittenReportDrawer';

const LIST = 'as.m.report.getAsai1UserReportPageList';
const GENERATE = 'as.m.report.generateWrittenReports';
const APPROVE = 'as.m.report.approveWrittenReport';

/**
 * The AI individual report (SPEC §2 individualReport, 001802): each person with their written
 * report's state. Staff write one for a person or for the ticked ones (background work: the list
 * polls while any is queued or being written), open it, edit the draft, approve it, and retry a
 * failed one.
 */
export default function IndividualReport() {
  const { t } = useTranslation();
  const institutions = useInstitutions();
  const writerText = useWriterText();
  const list = useListPage(LIST, {
    resource: 'empower.written',
    filters: [
      f.text('realname', { maxLength: 50 }),
      f.app(),
      f.select('state', (lang) => WRITTEN_STATES.map((s) => ({ value: s, label: t(`empower.written.states.${s}`, { lng: lang }) })), { width: 140 }),
      f.dateRange('dateRange', ['startdate', 'enddate']),
      f.institution(),
    ],
    refetchInterval: (data) => (anyBusy(data?.rows) ? POLL_MS : false),
  });
  const { confirm } = list;
  const { message } = App.useApp();
  const [selected, setSelected] = useState<WrittenReportPersonRow[]>([]);
  const [open, setOpen] = useState<WrittenReportPersonRow | null>(null);
  const busy = list.rows?.filter((r) => r.state === 'queued' || r.state === 'writing').length ?? 0;

  /** Queue writing for some persons; the answer says how many were queued and how many had nothing to write from. */
  const generate = (persons: WrittenReportPersonRow[], question?: string) =>
    confirm({
      action: GENERATE,
      input: { cusercodes: persons.map((p) => p.cusercode) },
      direct: !question,
      content: question,
      success: false,
      then: (r) => {
        setSelected([]);
        message.success(t('empower.written.queuedCount', { count: r.queued }));
        if (r.skipped) message.warning(t('empower.written.skippedCount', { count: r.skipped }));
      },
    });

  const approve = (r: WrittenReportPersonRow) =>
    confirm({
      action: APPROVE,
      input: { writtenid: r.writtenid! },
      content: t('empower.written.approveConfirm', { name: r.realname }),
      success: t('empower.written.approved'),
    });

  const action = (r: WrittenReportPersonRow, key: RowActionKey) => {
    const testId = `written-${key}-${r.cusercode}`;
    switch (key) {
      case 'generate':
        return { key, label: t('empower.written.generate'), action: GENERATE, onClick: () => void generate([r]), testId };
      case 'retry':
        return { key, label: t('empower.written.retry'), action: GENERATE, onClick: () => void generate([r]), testId };
      case 'open':
        return { key, label: t('empower.written.open'), onClick: () => setOpen(r), testId };
      case 'approve':
        return { key, label: t('empower.written.approve'), action: APPROVE, onClick: () => void approve(r), testId };
      case 'regenerate':
        return {
          key,
          label: t('empower.written.regenerate'),
          action: GENERATE,
          more: true,
          onClick: () => void generate([r], t('empower.written.regenerateConfirm', { name: r.realname })),
          testId,
        };
    }
  };

  const col = list.colFor<WrittenReportPersonRow>();
  return (
    <ListView<WrittenReportPersonRow>
      list={list}
      rowKey="cusercode"
      banner={busy > 0 ? <Alert type="info" showIcon title={t('empower.written.busyHint', { count: busy })} style={{ marginBottom: 8 }} /> : undefined}
      actions={
        <Can action={GENERATE}>
          <Button
            type="primary"
            icon={<RobotOutlined />}
            disabled={selected.length === 0}
            onClick={() => void generate(selected)}
            data-testid="written-generate-selected"
          >
            {selected.length ? t('empower.written.generateSelected', { count: selected.length }) : t('empower.written.generateNone')}
          </Button>
        </Can>
      }
      rowSelection={{
        selectedRowKeys: selected.map((p) => p.cusercode),
        onChange: (_, rows) => setSelected(rows),
        preserveSelectedRowKeys: true,
      }}
      columns={[
        col.text('realname', { width: 110 }),
        col.text('appname', { width: 130 }),
        ...(institutions.many ? [col.text('insname', { width: 160 })] : []),
        col.text('reportcount', { width: 100, align: 'right' }),
        col.time('lastassessedat'),
        col.text('state', {
          width: 150,
          render: (_: unknown, r) => <WrittenStateTag state={r.state} progress={r.progress} error={r.error} />,
        }),
        col.text('writer', { width: 160, render: (_: unknown, r) => writerText(r.writer, r.model) }),
        col.time('writtenat'),
        col.actions((r) => rowActions(r.state).map((key) => action(r, key)), { width: 190 }),
      ]}
    >
      <WrittenReportDrawer person={open} onClose={() => setOpen(null)} invalidates={[LIST]} />
    </ListView>
  );
}
