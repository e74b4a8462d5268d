import { useState } from 'react';
import { App as AntApp, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { TaskRow } from '@xinli/contract';
import { f, ListView, useListPage } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import TaskDialog from './TaskDialog';
import TaskProgressDrawer, { LIVE_MS } from './TaskProgressDrawer';
import TaskRosterDrawer from './TaskRosterDrawer';
import { TaskStatusTag, TaskWindow, TASK_KEYS } from './task-ui';
import './task.css';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.assess.getTaskList';
const STATUSES = ['pending', 'running', 'ended'] as const;

/**
 * Task management (administration, 00041): tasks that give a plan to teams within a window.
 * Saving a task gives each roster member a personal code; students sign in with the task code
 * plus number and name, or with the code on their slip. A row opens the task's progress (kept
 * in the URL as ?progress=<taskid>) and its persons.
 */
export default function Administration() {
  const { t } = useTranslation();
  const k = useT('task.task');
  const { modal } = AntApp.useApp();
  const institutions = useInstitutions();
  const [params, setParams] = useSearchParams();
  const [dialog, setDialog] = useState<{ open: boolean; task: TaskRow | null }>({ open: false, task: null });
  const [roster, setRoster] = useState<TaskRow | null>(null);

  const list = useListPage(LIST, {
    resource: 'task.task',
    filters: [f.text('taskname', { maxLength: 50, width: 160 }), f.select('status', STATUSES.map((s) => ({ value: s, label: k(`statuses.${s}`) })), { width: 120 }), f.institution()],
    invalidates: TASK_KEYS.slice(1),
    // The finished counts of running tasks move while classes answer.
    refetchInterval: (data) => (data?.rows.some((r) => r.status === 'running') ? LIVE_MS * 5 : false),
  });
  const col = list.colFor<TaskRow>();
  // A task anyone has answered stays (its reports belong to it): say so instead of asking.
  const remove = (r: TaskRow) =>
    r.answeredcount > 0
      ? void modal.warning({ title: k('deleteRefusedTitle'), content: k('deleteRefused', { name: r.taskname, count: r.answeredcount }), okText: t('common.ok') })
      : void list.confirm({
          action: 'as.m.assess.deleteAssessTask',
          input: { taskid: r.taskid },
          content: k('deleteConfirm', { name: r.taskname }),
          success: t('common.deleted'),
          danger: true,
        });
  const progressId = params.get('progress');
  const progressTask = list.rows?.find((r) => r.taskid === progressId) ?? null;
  const openProgress = (taskid: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (taskid) next.set('progress', taskid);
      else next.delete('progress');
      return next;
    });

  return (
    <ListView<TaskRow>
      list={list}
      rowKey="taskid"
      add={{ action: 'as.m.assess.insertAssessTask', onClick: () => setDialog({ open: true, task: null }), testId: 'task-add' }}
      columns={[
        col.text('taskname', {
          width: 200,
          render: (v: string, r) => (
            <Space orientation="vertical" size={0}>
              <a onClick={() => openProgress(r.taskid)} data-testid={`task-open-${r.taskid}`}>
                {v}
              </a>
              <Typography.Text type="secondary" copyable={{ text: r.taskcode }} className="task-code">
                {k('taskcode')} <span data-testid="task-code">{r.taskcode}</span>
              </Typography.Text>
            </Space>
          ),
        }),
        col.text('status', { width: 90, render: (v: TaskRow['status']) => <TaskStatusTag status={v} /> }),
        col.text('startat', { title: list.label('window'), width: 150, render: (_: unknown, r) => <TaskWindow startat={r.startat} endat={r.endat} /> }),
        col.text('issuedcount', {
          width: 110,
          align: 'right',
          render: (_: unknown, r) => (
            <span title={k('countsHelp')}>
              {r.answeredcount} / {r.issuedcount}
              {r.rostercount > r.issuedcount && r.status !== 'ended' && (
                <Typography.Text type="warning" className="task-missing">
                  {k('missingCodes', { count: r.rostercount - r.issuedcount })}
                </Typography.Text>
              )}
            </span>
          ),
        }),
        col.text('planname', { width: 160 }),
        col.text('teams', {
          width: 220,
          render: (_: unknown, r) => (
            <Space size={[4, 4]} wrap>
              {r.teams.slice(0, 4).map((x) => (
                <Tag key={x.teamid} variant="filled">
                  {x.teamname}
                </Tag>
              ))}
              {r.teams.length > 4 && <Tag variant="filled">+{r.teams.length - 4}</Tag>}
            </Space>
          ),
        }),
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.actions(
          (r) => [
            { key: 'progress', label: k('progressOpen'), onClick: () => openProgress(r.taskid), testId: `task-progress-${r.taskid}` },
            { key: 'persons', label: k('persons'), onClick: () => setRoster(r), testId: `task-persons-${r.taskid}` },
            { key: 'edit', action: 'as.m.assess.updateAssessTask', onClick: () => setDialog({ open: true, task: r }), more: true },
            { key: 'delete', action: 'as.m.assess.deleteAssessTask', danger: true, more: true, onClick: () => remove(r) },
          ],
          { width: 170, moreTestId: (r) => `task-more-${r.taskid}` },
        ),
      ]}
    >
      <TaskDialog {...dialog} onClose={() => setDialog({ open: false, task: null })} />
      <TaskRosterDrawer task={roster} onClose={() => setRoster(null)} />
      <TaskProgressDrawer task={progressTask} onClose={() => openProgress(null)} />
    </ListView>
  );
}
