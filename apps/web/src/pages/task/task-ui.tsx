/**
 * What the /task pages share: the team lookups (schools, years, terms, grades of the teams in
 * scope), the state tags of tasks and of persons in a task, and the task's time window.
 */
import { Tag } from 'antd';
import type { ActionName } from '@xinli/contract';
import { useAction } from '../../components/query';
import { formatTime } from '../../lib/format';
import { useT } from '../../i18n/useT';

const LOOKUPS = ['as.m.assess.getSchoolList', 'as.m.assess.getYearList', 'as.m.assess.getTermList', 'as.m.assess.getGradeList'] as const;
type Lookup = (typeof LOOKUPS)[number];

/** One lookup as Select options (all teams in scope, or of one institution). */
function useLookup(action: Lookup, musercode?: string) {
  const input = musercode ? { musercode } : {};
  const q = useAction(action, input, { staleTime: 30_000 });
  return (q.data ?? []).map((v) => ({ value: v, label: v }));
}

/** The school, year, term and grade values of the teams in scope, as options by field. */
export function useTeamLookups(musercode?: string) {
  const school = useLookup('as.m.assess.getSchoolList', musercode);
  const year = useLookup('as.m.assess.getYearList', musercode);
  const term = useLookup('as.m.assess.getTermList', musercode);
  const grade = useLookup('as.m.assess.getGradeList', musercode);
  return { school, year, term, grade };
}

/** Lists a team write changes (the lookups come from the teams). */
export const TEAM_KEYS: ActionName[] = ['as.m.assess.getAssessTeamPageList', ...LOOKUPS];
/** Lists a roster write changes (member counts, task rosters). */
export const ROSTER_KEYS: ActionName[] = ['as.m.assess.getAssessTeamRoster', 'as.m.assess.getAssessTeamPageList', 'as.m.assess.getTaskList'];
/** Lists a task write changes. */
export const TASK_KEYS: ActionName[] = [
  'as.m.assess.getTaskList',
  'as.m.assess.getAssessTaskRoster',
  'as.m.assess.getAssessTaskProgress',
  'as.m.assess.getAssessTaskRosterProgress',
  'as.m.assess.getAssessTeamPageList',
];

const TASK_COLOURS = { pending: 'default', running: 'processing', ended: 'success' } as const;
export type TaskStatus = keyof typeof TASK_COLOURS;

export function TaskStatusTag({ status }: { status: TaskStatus }) {
  const k = useT('task.task');
  return (
    <Tag color={TASK_COLOURS[status]} data-testid="task-status">
      {k(`statuses.${status}`)}
    </Tag>
  );
}

export const PROGRESS_STATES = ['notstarted', 'inprogress', 'finished'] as const;
export type ProgressState = (typeof PROGRESS_STATES)[number];
export const PROGRESS_COLOURS: Record<ProgressState, string> = { notstarted: '#bfbfbf', inprogress: '#faad14', finished: '#43a777' };

export function ProgressTag({ status }: { status: ProgressState }) {
  const k = useT('task.task');
  const colour = { notstarted: 'default', inprogress: 'warning', finished: 'success' }[status];
  return <Tag color={colour}>{k(`progress.${status}`)}</Tag>;
}

/** A task's window, start over end. */
export function TaskWindow({ startat, endat }: { startat: string; endat: string }) {
  return (
    <span className="list-time">
      {formatTime(startat)}
      <br />~ {formatTime(endat)}
    </span>
  );
}
