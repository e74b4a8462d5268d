import { useState } from 'react';
import { Alert, App as AntApp, Segmented, Space, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { Gender, ROSTER_MAX_BASE64, type ActionOutput, type TeamRow } from '@xinli/contract';
import { call, download } from '../../api';
import { DetailTable } from '../../components/list';
import { ImportDialog, ImportProblems } from '../../components/transfer/ImportDialog';
import { useEnumOptions } from '../../lib/options';
import { ROSTER_KEYS } from './task-ui';
import { useT } from '../../i18n/useT';

const IMPORT = 'as.m.assess.importAssessTeamRoster';
type Preview = ActionOutput<typeof IMPORT>;
type Change = Preview['changes'][number];
type View = 'new' | 'changed' | 'leaving' | 'errors';

/** What a file of this size becomes in the JSON body (base64, 4 characters per 3 bytes). */
const MAX_BYTES = Math.floor((ROSTER_MAX_BASE64 * 3) / 4);
const CHANGE_COLOURS = { new: 'success', changed: 'processing', leaving: 'warning' } as const;

/**
 * A team's roster from a spreadsheet in two steps: the preview (nothing stored) shows the
 * difference against the current roster (new, changed, leaving) and every bad row with the
 * error file to fix it by; confirming applies exactly that difference, all of it or nothing.
 */
export default function RosterImportDialog({ team, onClose }: { team: TeamRow; onClose: () => void }) {
  const k = useT('task.team');
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>('new');
  const nothing = (p: Preview) => p.added + p.changed + p.leaving === 0;
  return (
    <ImportDialog<Preview>
      title={k('importTitle', { name: team.teamname })}
      help={k('importHelp')}
      width={800}
      maxBytes={MAX_BYTES}
      template={() => download('as.m.assess.getAssessTeamRosterTemplate', {}, `${k('import')}.xlsx`)}
      preview={async (file) => {
        const p = await call(IMPORT, { teamid: team.teamid, mode: 'preview', ...file });
        setView(p.problemcount ? 'errors' : p.added ? 'new' : p.changed ? 'changed' : 'leaving');
        return p;
      }}
      commit={async (file) => {
        const r = await call(IMPORT, { teamid: team.teamid, mode: 'commit', ...file });
        message.success(k('committed', { added: r.added, changed: r.changed, leaving: r.leaving }));
        await Promise.all(ROSTER_KEYS.map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
      }}
      canCommit={(p) => !nothing(p)}
      testid="roster"
      onClose={onClose}
    >
      {(p) => (
        <Space orientation="vertical" size={8} style={{ width: '100%' }} data-testid="roster-preview">
          {p.problemcount ? (
            <Alert type="error" showIcon title={k('previewBad', { count: p.problemcount })} />
          ) : nothing(p) ? (
            <Alert type="info" showIcon title={k('previewSame')} />
          ) : (
            <Alert
              type={p.leaving ? 'warning' : 'success'}
              showIcon
              title={k('previewSummary', { ...p })}
              description={p.leaving ? k('leavingWarn', { count: p.leaving }) : undefined}
              data-testid="roster-summary"
            />
          )}
          <Segmented<View>
            value={view}
            onChange={setView}
            options={(['new', 'changed', 'leaving', 'errors'] as const).map((v) => ({
              value: v,
              label: `${k(`changeKinds.${v}`)} ${{ new: p.added, changed: p.changed, leaving: p.leaving, errors: p.problemcount }[v]}`,
            }))}
            data-testid="roster-views"
          />
          {view === 'errors' ? <ImportProblems problems={p.problems} testid="roster" /> : <Changes changes={p.changes.filter((c) => c.change === view)} />}
        </Space>
      )}
    </ImportDialog>
  );
}

function Changes({ changes }: { changes: Change[] }) {
  const k = useT('task.team');
  const genders = useEnumOptions(Gender);
  const genderOf = (v: string) => genders.find((g) => g.value === v)?.label ?? v;
  return (
    <DetailTable<Change>
      bordered
      rowKey={(c) => `${c.change}-${c.studentno}-${c.row}`}
      dataSource={changes}
      pageSize={10}
      columns={[
        { title: k('change'), key: 'change', width: 80, render: (_, c) => <Tag color={CHANGE_COLOURS[c.change]}>{k(`changeKinds.${c.change}`)}</Tag> },
        { title: k('row'), dataIndex: 'row', key: 'row', width: 70, render: (v: number) => v || '—' },
        { title: k('studentno'), dataIndex: 'studentno', key: 'studentno', width: 130 },
        { title: k('realname'), dataIndex: 'realname', key: 'realname', width: 120 },
        { title: k('gender'), dataIndex: 'gender', key: 'gender', width: 70, render: genderOf },
        { title: k('before'), key: 'before', render: (_, c) => (c.before ? `${c.before.realname} · ${genderOf(c.before.gender)}` : '—') },
      ]}
      data-testid="roster-changes"
    />
  );
}
