import { useState } from 'react';
import { App as AntApp, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TeamRow } from '@xinli/contract';
import { f, ListView, useListPage, type FilterDef } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import RosterDrawer from './RosterDrawer';
import TeamDialog from './TeamDialog';
import { TEAM_KEYS, useTeamLookups } from './task-ui';
import { useT } from '../../i18n/useT';
import type { KeyOf } from '../../i18n/keys';

const LIST = 'as.m.assess.getAssessTeamPageList';
const KINDS = ['class', 'dept'] as const;

/**
 * Group management (teamManagement, 00042): the teams of the caller's institutions (a class of a
 * school, or a department of an employer), filtered by the schools, years, terms and grades the
 * teams have; a row opens its roster (add, remove, import with the difference shown first).
 */
export default function TeamManagement() {
  const { t } = useTranslation();
  const k = useT('task.team');
  const { modal } = AntApp.useApp();
  const institutions = useInstitutions();
  const lookups = useTeamLookups();
  const [adding, setAdding] = useState(false);
  const [roster, setRoster] = useState<TeamRow | null>(null);

  const filters: FilterDef[] = [
    f.text('teamname', { maxLength: 50, width: 160 }),
    f.select('kind', KINDS.map((v) => ({ value: v, label: k(`kinds.${v as KeyOf<'task.team.kinds'>}`) })), { width: 110 }),
    f.select('school', lookups.school, { width: 180 }),
    f.select('year', lookups.year, { width: 130 }),
    f.select('term', lookups.term, { width: 130 }),
    f.select('grade', lookups.grade, { width: 120 }),
    f.institution(),
  ];
  const list = useListPage(LIST, { resource: 'task.team', filters, invalidates: TEAM_KEYS.slice(1) });
  const col = list.colFor<TeamRow>();

  // A team in a task that has not ended cannot go: say so at once instead of asking first.
  const remove = (r: TeamRow) =>
    r.opentaskcount > 0
      ? void modal.warning({ title: k('deleteRefusedTitle'), content: k('deleteRefused', { name: r.teamname, count: r.opentaskcount }), okText: t('common.ok') })
      : void list.confirm({
          action: 'as.m.assess.deleteAssessTeam',
          input: { teamid: r.teamid },
          content: t('common.deleteConfirm', { name: r.teamname }),
          success: t('common.deleted'),
          danger: true,
        });

  return (
    <ListView<TeamRow>
      list={list}
      rowKey="teamid"
      add={{ action: 'as.m.assess.insertAssessTeam', onClick: () => setAdding(true), testId: 'team-add' }}
      columns={[
        col.text('teamname', {
          width: 220,
          render: (v: string, r) => (
            <a onClick={() => setRoster(r)} data-testid={`team-open-${r.teamid}`}>
              {v}
            </a>
          ),
        }),
        col.text('kind', { width: 80, render: (v: string) => <Tag variant="filled">{k(`kinds.${v as KeyOf<'task.team.kinds'>}`)}</Tag> }),
        col.text('school', { width: 160, render: (v: string) => v || '—' }),
        col.text('year', { width: 100, render: (v: string) => v || '—' }),
        col.text('term', { width: 100, render: (v: string) => v || '—' }),
        col.text('grade', { width: 90, render: (v: string) => v || '—' }),
        col.text('membercount', { width: 80, align: 'right' }),
        col.text('opentaskcount', { width: 100, align: 'right' }),
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'roster', label: k('roster'), onClick: () => setRoster(r), testId: `team-roster-${r.teamid}` },
            { key: 'delete', action: 'as.m.assess.deleteAssessTeam', danger: true, onClick: () => remove(r), testId: `team-delete-${r.teamid}` },
          ],
          { width: 110 },
        ),
      ]}
    >
      <TeamDialog open={adding} onClose={() => setAdding(false)} />
      <RosterDrawer team={roster} onClose={() => setRoster(null)} />
    </ListView>
  );
}
