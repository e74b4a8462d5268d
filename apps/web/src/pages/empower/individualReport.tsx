import { useState } from 'react';
import { Alert, App, Button, Progress, Select, Space, Tag, Tooltip } from 'antd';
import { LoadingOutlined, RobotOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ActionOutput, WriterKind, WrittenListRow } from '@xinli/contract';
import { useAction } from '../../components/query';
import { Can } from '../../components/access';
import { f, ListView, useListPage, type RowAction } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { anyBusy, isBusy, POLL_MS, rowActions, useWriterText, WRITTEN_STATES, WrittenStateTag, type RowActionKey } from '../../features/reports/written-state';
import WrittenReportDrawer from '../../features/reports/WrittenReportDrawer';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.report.getAsai1UserReportPageList';
const WRITERS = 'as.m.report.getAsai1Writers';
const GENERATE = 'as.m.report.generateAsai1UserReport';
const PROGRESS = 'as.m.report.getAsai1BatchProgress';
const APPROVE = 'as.m.report.approveAsai1UserReport';
const WITHDRAW = 'as.m.report.withdrawAsai1UserReport';
const RETRY = 'as.m.report.retryAsai1UserReport';

/** The writers the server offers; a choice is shown only when there is more than the rule-based one. */
function useWriters() {
  const q = useAction(WRITERS, {}, { staleTime: 60_000 });
  return q.data;
}

/** The progress of the batch last asked for on this page, polled until nothing is queued or writing. */
function BatchProgress({ writtenids }: { writtenids: string[] }) {
  const { t } = useTranslation();
  const q = useAction(
    PROGRESS,
    { writtenids },
    { refetchInterval: (query) => (!query.state.data || query.state.data.queued + query.state.data.writing > 0 ? POLL_MS : false) },
  );
  const p = q.data;
  if (!p) return null;
  const pending = p.queued + p.writing;
  return (
    <Alert
      type={p.failed ? 'warning' : pending ? 'info' : 'success'}
      showIcon
      style={{ marginBottom: 8 }}
      data-testid="written-batch"
      title={
        <Space wrap>
          <span>{t('empower.written.batch', { total: p.total, written: p.written, failed: p.failed, pending })}</span>
          <Progress
            percent={p.percent}
            size="small"
            style={{ width: 160, margin: 0 }}
            status={pending ? 'active' : p.failed ? 'exception' : 'success'}
          />
        </Space>
      }
    />
  );
}

/**
 * The AI individual report (SPEC §2 individualReport, 001802): each person with results and the
 * state of their written report. Staff write one for a person or for the ticked ones (background
 * work: the list polls while any row is queued or being written), open it, edit the draft,
 * approve it (or withdraw the approval), and retry a failed one.
 */
export default function IndividualReport() {
  const { t } = useTranslation();
  const w = useT('empower.written');
  const { message } = App.useApp();
  const institutions = useInstitutions();
  const writerText = useWriterText();
  const writers = useWriters();
  const [writer, setWriter] = useState<WriterKind | undefined>();
  const list = useListPage(LIST, {
    resource: 'empower.written',
    filters: [
      f.text('realname', { maxLength: 50 }),
      f.app(),
      f.select('state', () => WRITTEN_STATES.map((s) => ({ value: s, label: w(`states.${s}`) })), { width: 140 }),
      f.dateRange('dateRange', ['startdate', 'enddate']),
      f.institution(),
    ],
    refetchInterval: (data) => (anyBusy(data?.rows) ? POLL_MS : false),
  });
  const { confirm } = list;
  const [selected, setSelected] = useState<WrittenListRow[]>([]);
  const [open, setOpen] = useState<WrittenListRow | null>(null);
  const [batch, setBatch] = useState<string[]>([]);
  /** Who is being asked for now: their buttons spin until the job is queued (issue 28). */
  const [starting, setStarting] = useState<string[]>([]);
  const busy = list.rows?.filter((r) => isBusy(r.state)).length ?? 0;
  const nameOf = (code: string) => list.rows?.find((r) => r.cusercode === code)?.realname ?? code;

  /** Says what was queued and, by name, who was skipped and why. */
  const queued = (r: ActionOutput<typeof GENERATE>) => {
    if (r.writtenids.length) message.success(t('empower.written.queuedCount', { count: r.writtenids.length }));
    for (const reason of ['noreports', 'inprogress'] as const) {
      const names = r.skipped.filter((s) => s.reason === reason).map((s) => nameOf(s.cusercode));
      if (names.length)
        message.warning(
          t(reason === 'noreports' ? 'empower.written.skippedNoReports' : 'empower.written.skippedInProgress', { names: names.join('、') }),
        );
    }
    // The batch line polls the jobs' states (queued, writing, written) for one person too.
    if (r.writtenids.length) setBatch(r.writtenids);
  };

  /**
   * Asks for written reports. Queuing and refreshing the list take a moment on a busy server: the
   * buttons spin and a message says the job is starting at once; then the batch line follows it.
   */
  const generate = async (persons: WrittenListRow[], question?: string) => {
    const codes = persons.map((p) => p.cusercode);
    setStarting(codes);
    if (!question) void message.loading({ key: 'written-start', content: t('empower.written.starting', { count: codes.length }), duration: 0 });
    try {
      await confirm({
        action: GENERATE,
        input: { cusercodes: codes, ...(writer ? { writer } : {}) },
        direct: !question,
        content: question,
        success: false,
        then: (r) => {
          setSelected([]);
          queued(r);
        },
      });
    } finally {
      message.destroy('written-start');
      setStarting([]);
    }
  };

  const action = (r: WrittenListRow, key: RowActionKey): RowAction => {
    const testId = `written-${key}-${r.cusercode}`;
    const id = r.writtenid ?? '';
    const name = r.realname;
    switch (key) {
      case 'generate':
        return {
          key,
          label: w('generate'),
          action: GENERATE,
          onClick: () => void generate([r]),
          testId,
          ...(starting.includes(r.cusercode) ? { icon: <LoadingOutlined />, disabled: true } : {}),
        };
      case 'retry':
        return {
          key,
          label: w('retry'),
          action: RETRY,
          tooltip: r.error ?? undefined,
          onClick: () => void confirm({ action: RETRY, input: { writtenid: id }, direct: true, success: w('retryQueued') }),
          testId,
        };
      case 'open':
        return { key, label: w('open'), onClick: () => setOpen(r), testId };
      case 'approve':
        return {
          key,
          label: w('approve'),
          action: APPROVE,
          onClick: () =>
            void confirm({ action: APPROVE, input: { writtenid: id }, content: w('approveConfirm', { name }), success: w('approved') }),
          testId,
        };
      case 'withdraw':
        return {
          key,
          label: w('withdraw'),
          action: WITHDRAW,
          more: true,
          onClick: () =>
            void confirm({
              action: WITHDRAW,
              input: { writtenid: id },
              content: w('withdrawConfirm', { name }),
              success: w('withdrawn'),
              danger: true,
            }),
          testId,
        };
      case 'regenerate':
        return {
          key,
          label: w('regenerate'),
          action: GENERATE,
          more: true,
          onClick: () => void generate([r], w('regenerateConfirm', { name })),
          testId,
        };
    }
  };

  const col = list.colFor<WrittenListRow>();
  const choices = writers?.writers ?? [];
  return (
    <ListView<WrittenListRow>
      list={list}
      rowKey="cusercode"
      banner={
        <>
          {batch.length > 0 && <BatchProgress writtenids={batch} />}
          {busy > 0 && batch.length === 0 && (
            <Alert type="info" showIcon style={{ marginBottom: 8 }} title={t('empower.written.busyHint', { count: busy })} />
          )}
        </>
      }
      actions={
        <Can action={GENERATE}>
          <Space size={8} wrap>
            {choices.length > 1 && (
              <Select<WriterKind>
                aria-label={t('empower.written.writerChoice')}
                value={writer ?? writers?.default}
                onChange={setWriter}
                style={{ width: 220 }}
                options={choices.map((c) => ({ value: c.writer, label: writerText(c.writer, c.model) }))}
                data-testid="written-writer-choice"
              />
            )}
            <Button
              type="primary"
              icon={<RobotOutlined />}
              disabled={selected.length === 0}
              loading={starting.length > 0 && selected.length > 0}
              onClick={() => void generate(selected)}
              data-testid="written-generate-selected"
            >
              {selected.length ? t('empower.written.generateSelected', { count: selected.length }) : t('empower.written.generateNone')}
            </Button>
          </Space>
        </Can>
      }
      rowSelection={{
        selectedRowKeys: selected.map((p) => p.cusercode),
        onChange: (_, rows) => setSelected(rows),
        // A person whose report is being written cannot be asked for again.
        getCheckboxProps: (r) => ({ disabled: isBusy(r.state) }),
        preserveSelectedRowKeys: true,
      }}
      columns={[
        col.text('realname', { width: 110 }),
        // The state comes next to the name: at 1024 px it is seen without scrolling sideways.
        col.text('state', {
          width: 130,
          render: (_: unknown, r) => (
            <Space size={4} wrap>
              <WrittenStateTag state={r.state} progress={r.progress} error={r.error} />
              {r.stale === 1 && !isBusy(r.state) && (
                <Tooltip title={t('empower.written.staleHint')}>
                  <Tag color="orange" data-testid="written-stale" style={{ marginInlineEnd: 0 }}>
                    {t('empower.written.stale')}
                  </Tag>
                </Tooltip>
              )}
            </Space>
          ),
        }),
        col.text('appname', { width: 120 }),
        ...(institutions.many ? [col.text('insname', { width: 160 })] : []),
        col.text('reportcount', { width: 100, align: 'right' }),
        col.time('lastreportat'),
        col.text('writer', { width: 140, render: (_: unknown, r) => writerText(r.writer, r.model) }),
        col.time('writtenat'),
        col.actions((r) => rowActions(r.state).map((key) => action(r, key)), {
          width: 190,
          moreTestId: (r) => `written-more-${r.cusercode}`,
        }),
      ]}
    >
      {/* The drawer follows the row as the list refreshes (a retry or a regeneration gives it a new written report). */}
      <WrittenReportDrawer
        person={open && (list.rows?.find((r) => r.cusercode === open.cusercode) ?? open)}
        onClose={() => setOpen(null)}
        invalidates={[LIST]}
      />
    </ListView>
  );
}
