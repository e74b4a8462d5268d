import { useEffect, useState } from 'react';
import { Badge, Drawer, Input, Segmented, Select, Space, Tooltip, Typography } from 'antd';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActionOutput, ConsentState, TaskRow } from '@xinli/contract';
import { useAction } from '../../components/query';
import { DetailTable, ErrorState, Waiting } from '../../components/list';
import { ExportButton } from '../../components/transfer';
import { formatTime } from '../../lib/format';
import { PROGRESS_COLOURS, PROGRESS_STATES, ProgressTag, TaskStatusTag, type ProgressState } from './task-ui';
import { useT } from '../../i18n/useT';
import { ConsentTag } from '../../features/consent/consent-ui';

const PROGRESS = 'as.m.assess.getAssessTaskProgress';
const PERSONS = 'as.m.assess.getAssessTaskRosterProgress';
type Counts = ActionOutput<typeof PROGRESS>['teams'][number];
type Person = ActionOutput<typeof PERSONS>['rows'][number];
type Filter = ProgressState | 'unfinished' | '';
const PAGE_SIZE = 50;
/** While a task runs the counts are read again this often, so they move as a class answers. */
export const LIVE_MS = 3000;

/** Not started / in progress / finished as one bar, with the share finished. */
function ProgressBar({ c }: { c: Pick<Counts, 'total' | ProgressState> }) {
  const progress = useT('task.task.progress');
  const pct = c.total ? Math.round((c.finished / c.total) * 100) : 0;
  return (
    <div className="task-bar-wrap">
      <Tooltip title={PROGRESS_STATES.map((s) => `${progress(s)} ${c[s]}`).join(' · ')}>
        <div className="task-bar" role="img" aria-label={`${pct}%`}>
          {[...PROGRESS_STATES].reverse().map((s) => (c[s] ? <span key={s} style={{ flex: c[s], background: PROGRESS_COLOURS[s] }} /> : null))}
        </div>
      </Tooltip>
      <span className="task-bar-pct">{pct}%</span>
    </div>
  );
}

/**
 * A task's progress while it runs: the counts per team (not started, in progress, finished) and
 * the persons by state, read again every few seconds while the task runs, so staff watch a class
 * finish without reloading; the export lists who has not finished, by class.
 */
export default function TaskProgressDrawer({ task, onClose }: { task: TaskRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('task.task');
  const c = useT('archives.consent');
  const [teamid, setTeamid] = useState<string | undefined>();
  const [status, setStatus] = useState<Filter>('');
  const [realname, setRealname] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    setTeamid(undefined);
    setStatus('');
    setRealname('');
    setPage(1);
  }, [task?.taskid]);

  const taskid = task?.taskid ?? '';
  const progress = useAction(
    PROGRESS,
    { taskid },
    { silent: true, enabled: !!task, refetchInterval: (q) => (q.state.data?.status === 'ended' ? false : LIVE_MS) },
  );
  const live = progress.data?.status === 'running';
  const input = { taskid, teamid, status, realname: realname.trim() || undefined, page, pageSize: PAGE_SIZE };
  const persons = useAction(PERSONS, input, {
    silent: true,
    enabled: !!task,
    placeholderData: keepPreviousData,
    refetchInterval: live ? LIVE_MS : false,
  });
  const p = progress.data;
  const filterTeam = (id: string | undefined) => (setTeamid(id), setPage(1));

  return (
    <Drawer
      open={!!task}
      onClose={onClose}
      size={960}
      title={task ? k('progressTitle', { name: task.taskname }) : ''}
      extra={
        task && (
          <ExportButton action="as.m.assess.exportAssessTaskRosterProgress" input={{ taskid, teamid, status: 'unfinished' }} data-testid="progress-export">
            {teamid ? k('exportTeamUnfinished') : k('exportUnfinished')}
          </ExportButton>
        )
      }
      destroyOnHidden
      data-testid="progress-drawer"
    >
      {!p ? (
        <Waiting query={progress} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <div className="task-progress-head">
            <TaskStatusTag status={p.status} />
            {PROGRESS_STATES.map((s) => (
              <span key={s} className="task-count" data-testid={`progress-${s}`}>
                <Badge color={PROGRESS_COLOURS[s]} />
                <Typography.Text type="secondary">{k(`progress.${s}`)}</Typography.Text>
                <strong>{p[s]}</strong>
              </span>
            ))}
            <span className="task-count">
              <Typography.Text type="secondary">{k('total')}</Typography.Text>
              <strong data-testid="progress-total">{p.total}</strong>
            </span>
            <Tooltip title={c('missingHelp')}>
              <span className="task-count" data-testid="progress-consentmissing">
                <Badge color={p.consentmissing ? 'orange' : 'green'} />
                <Typography.Text type="secondary">{c('missing')}</Typography.Text>
                <strong>{p.consentmissing}</strong>
              </span>
            </Tooltip>
            <Typography.Text type="secondary" className="task-live" data-testid="progress-live">
              {live && <Badge status="processing" />}
              {k(live ? 'live' : 'updatedAt', { time: formatTime(new Date(progress.dataUpdatedAt).toISOString()).slice(11) })}
            </Typography.Text>
          </div>
          <DetailTable<Counts>
            bordered
            rowKey="teamid"
            dataSource={p.teams}
            empty={k('noTeams')}
            rowClassName={(r) => (r.teamid === teamid ? 'task-row-selected' : '')}
            onRow={(r) => ({ onClick: () => filterTeam(r.teamid === teamid ? undefined : r.teamid), style: { cursor: 'pointer' } })}
            columns={[
              { title: k('teamname'), dataIndex: 'teamname', key: 'teamname', width: 220 },
              { title: k('total'), dataIndex: 'total', key: 'total', width: 70, align: 'right' },
              ...PROGRESS_STATES.map((s) => ({ title: k(`progress.${s}`), dataIndex: s, key: s, width: 80, align: 'right' as const })),
              { title: c('missing'), dataIndex: 'consentmissing', key: 'consentmissing', width: 90, align: 'right' as const },
              { title: k('finishedShare'), key: 'bar', width: 220, render: (_: unknown, r: Counts) => <ProgressBar c={r} /> },
            ]}
            data-testid="progress-teams"
          />
          <Space wrap>
            <Segmented<Filter>
              value={status}
              onChange={(v) => (setStatus(v), setPage(1))}
              options={[
                { value: '', label: t('common.all') },
                { value: 'unfinished', label: k('progress.unfinished') },
                ...PROGRESS_STATES.map((s) => ({ value: s, label: k(`progress.${s}`) })),
              ]}
              data-testid="progress-filter"
            />
            <Select
              allowClear
              placeholder={k('allTeams')}
              value={teamid}
              onChange={filterTeam}
              options={p.teams.map((x) => ({ value: x.teamid, label: x.teamname }))}
              style={{ width: 220 }}
            />
            <Input.Search allowClear placeholder={k('nameSearch')} onSearch={(v) => (setRealname(v), setPage(1))} style={{ width: 160 }} />
          </Space>
          {persons.error && !persons.data ? (
            <ErrorState error={persons.error} onRetry={() => void persons.refetch()} />
          ) : (
            <DetailTable<Person>
              bordered
              rowKey={(r) => `${r.teamid}-${r.cusercode}`}
              loading={persons.isLoading}
              dataSource={persons.data?.rows}
              paged={{ page, pageSize: PAGE_SIZE, total: persons.data?.total ?? 0, onChange: setPage }}
              columns={[
                { title: k('teamname'), dataIndex: 'teamname', key: 'teamname', width: 220 },
                { title: t('task.team.studentno'), dataIndex: 'studentno', key: 'studentno', width: 120 },
                { title: t('task.team.realname'), dataIndex: 'realname', key: 'realname', width: 110 },
                { title: k('progressState'), dataIndex: 'status', key: 'status', width: 90, render: (v: ProgressState) => <ProgressTag status={v} /> },
                { title: c('column'), dataIndex: 'consent', key: 'consent', width: 130, render: (v: ConsentState) => <ConsentTag state={v} /> },
                { title: k('startedat'), dataIndex: 'startedat', key: 'startedat', width: 140, render: (v: string | null) => (v ? formatTime(v) : '—') },
                { title: k('finishedat'), dataIndex: 'finishedat', key: 'finishedat', width: 140, render: (v: string | null) => (v ? formatTime(v) : '—') },
              ]}
              data-testid="progress-persons"
            />
          )}
        </Space>
      )}
    </Drawer>
  );
}
