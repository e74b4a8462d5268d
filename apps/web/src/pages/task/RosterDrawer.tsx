import { useEffect, useState } from 'react';
import { Button, Drawer, Input, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Gender, type ActionOutput, type TeamRow } from '@xinli/contract';
import { useAction } from '../../components/query';
import { Can, useAccess } from '../../components/access';
import { DetailTable, ErrorState, useConfirmCall } from '../../components/list';
import { formatTime } from '../../lib/format';
import { useEnumOptions } from '../../lib/options';
import MemberDialog from './MemberDialog';
import RosterImportDialog from './RosterImportDialog';
import { ROSTER_KEYS } from './task-ui';
import { useT } from '../../i18n/useT';
import { ConsentSheetButtons } from '../../features/consent/consent-ui';

const ROSTER = 'as.m.assess.getAssessTeamRoster';
type Member = ActionOutput<typeof ROSTER>['rows'][number];
const PAGE_SIZE = 50;

/** A team's roster: search by name or number, add a member, remove the selected, import a whole roster. */
export default function RosterDrawer({ team, onClose }: { team: TeamRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const k = useT('task.team');
  const { can } = useAccess();
  const confirm = useConfirmCall();
  const genders = useEnumOptions(Gender);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<'add' | 'import' | null>(null);
  useEffect(() => {
    setSearch('');
    setPage(1);
    setSelected([]);
  }, [team?.teamid]);

  const word = search.trim();
  const input = {
    teamid: team?.teamid ?? '',
    // A number is letters, digits, - and _; anything else is part of a name.
    ...(word ? (/^[A-Za-z0-9_-]+$/.test(word) ? { studentno: word } : { realname: word }) : {}),
    page,
    pageSize: PAGE_SIZE,
  };
  const q = useAction(ROSTER, input, { enabled: !!team, placeholderData: keepPreviousData });
  const removeSelected = () =>
    void confirm({
      action: 'as.m.assess.batchDeleteAssessTeamCUser',
      input: { teamid: team!.teamid, cusercodes: selected },
      content: k('removeConfirm', { count: selected.length, name: team!.teamname }),
      success: k('removed', { count: selected.length }),
      danger: true,
      invalidates: ROSTER_KEYS,
      then: () => setSelected([]),
    });
  const writable = can('as.m.assess.batchDeleteAssessTeamCUser');

  return (
    <Drawer
      open={!!team}
      onClose={onClose}
      size={760}
      title={team ? k('rosterTitle', { name: team.teamname }) : ''}
      destroyOnHidden
      data-testid="roster-drawer"
    >
      {team && (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Space wrap>
            <Input.Search
              allowClear
              placeholder={k('rosterSearch')}
              onSearch={(v) => (setSearch(v), setPage(1))}
              style={{ width: 200 }}
              data-testid="roster-search"
            />
            <Can action="as.m.assess.insertAssessTeamCUser">
              <Button icon={<PlusOutlined />} onClick={() => setDialog('add')} data-testid="roster-add">
                {k('addMember')}
              </Button>
            </Can>
            <Can action="as.m.assess.importAssessTeamRoster">
              <Button type="primary" ghost icon={<UploadOutlined />} onClick={() => setDialog('import')} data-testid="roster-import">
                {k('import')}
              </Button>
            </Can>
            {team.kind === 'class' && <ConsentSheetButtons teamid={team.teamid} />}
            {writable && (
              <Button danger icon={<DeleteOutlined />} disabled={!selected.length} onClick={removeSelected} data-testid="roster-remove">
                {k('removeSelected', { count: selected.length })}
              </Button>
            )}
          </Space>
          {q.error ? (
            <ErrorState error={q.error} onRetry={() => void q.refetch()} />
          ) : (
            <DetailTable<Member>
              bordered
              rowKey="cusercode"
              loading={q.isFetching}
              dataSource={q.data?.rows}
              empty={word ? t('common.empty') : k('rosterEmpty')}
              rowSelection={writable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), preserveSelectedRowKeys: true } : undefined}
              paged={{ page, pageSize: PAGE_SIZE, total: q.data?.total ?? 0, onChange: setPage }}
              columns={[
                { title: k('studentno'), dataIndex: 'studentno', key: 'studentno', width: 140 },
                { title: k('realname'), dataIndex: 'realname', key: 'realname', width: 160 },
                {
                  title: k('gender'),
                  dataIndex: 'gender',
                  key: 'gender',
                  width: 80,
                  render: (v: string) => genders.find((g) => g.value === v)?.label ?? '—',
                },
                { title: k('joinedat'), dataIndex: 'joinedat', key: 'joinedat', render: (v: string) => <Typography.Text type="secondary">{formatTime(v)}</Typography.Text> },
              ]}
              data-testid="roster-table"
            />
          )}
        </Space>
      )}
      {team && <MemberDialog team={team} open={dialog === 'add'} onClose={() => setDialog(null)} />}
      {team && dialog === 'import' && <RosterImportDialog team={team} onClose={() => setDialog(null)} />}
    </Drawer>
  );
}
