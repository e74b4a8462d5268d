import { useState } from 'react';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Gender, type ArchiveRow, type CuserRow } from '@xinli/contract';
import { ListView } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { RetentionButton } from '../../features/persons/RetentionDialog';
import { archiveLink } from '../../features/links';
import { maskIdCard } from '../../lib/populations';
import { useLocalText } from '../../lib/options';
import { regionOr } from '../../components/archive-form/RegionText';
import PersonDialog, { useArchiveHead } from '../../features/persons/PersonDialog';
import { LinkEntriesButton } from './LinkEntries';
import { PersonTransfer, useDeletePerson, usePersonListPage, addPersonButton } from '../../features/persons/usePersonActions';

const LIST = 'as.m.cuser.getCUserArchivePageList';

/**
 * An archive list: persons with their archive answers, one column per question of the app's
 * archive form (from getCUserArchiveHeadList); the all-populations page shows the population
 * instead. A name opens the person's archive.
 */
export default function ArchiveList({ appid }: { appid?: string }) {
  const { t } = useTranslation();
  const text = useLocalText();
  const navigate = useNavigate();
  const institutions = useInstitutions();
  const head = useArchiveHead(appid);
  const list = usePersonListPage(LIST, appid);
  const [dialog, setDialog] = useState<{ open: boolean; person: CuserRow | null }>({ open: false, person: null });
  const remove = useDeletePerson();
  const { col } = list;
  const open = (r: ArchiveRow) => navigate(archiveLink(r.appid, r.cusercode));
  const archiveColumns = (head.data?.columns ?? []).map((c) => ({
    title: text(c.title),
    key: c.key,
    width: c.type === 0 && (c.inputtype ?? 0) === 0 ? 160 : 120,
    render: (_: unknown, r: ArchiveRow) => regionOr(c, r.archive[c.key]),
  }));
  return (
    <ListView<ArchiveRow>
      list={list}
      rowKey="cusercode"
      add={addPersonButton(t('archives.person.add'), () => setDialog({ open: true, person: null }))}
      actions={
        <Space wrap size={8}>
          <PersonTransfer appid={appid} filters={list.filters} />
          <LinkEntriesButton />
          <RetentionButton />
        </Space>
      }
      columns={[
        col.text('realname', {
          width: 110,
          fixed: 'left',
          render: (v: string, r) => (
            <Typography.Link onClick={() => open(r)} data-testid={`archive-open-${r.cusercode}`}>
              {v}
            </Typography.Link>
          ),
        }),
        col.enumTag('gender', Gender, { width: 70 }),
        col.text('birthdate', { width: 110, render: (v: string) => v || '—' }),
        col.phone('phonenumber'),
        col.text('idcard', { width: 180, render: (v: string) => maskIdCard(v) || '—' }),
        ...(appid ? archiveColumns : [col.text('appname', { title: t('archives.person.appid'), width: 130 })]),
        ...(institutions.many ? [col.text('insname', { width: 160 })] : []),
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'view', label: t('archives.person.view'), onClick: () => open(r) },
            // An anonymised person can no longer be edited (the server refuses it too).
            { key: 'edit', action: 'as.m.cuser.updateCUser', hidden: !!r.anonymisedat, onClick: () => setDialog({ open: true, person: r }) },
            {
              key: 'clear',
              label: t('archives.person.clearArchive'),
              action: 'as.m.cuser.deleteCUserArchive',
              more: true,
              onClick: () =>
                void list.confirm({
                  action: 'as.m.cuser.deleteCUserArchive',
                  input: { cusercode: r.cusercode },
                  content: t('archives.person.clearArchiveConfirm', { name: r.realname }),
                  danger: true,
                }),
            },
            { key: 'delete', action: 'as.m.cuser.deleteCUser', danger: true, onClick: () => void remove(r), more: true },
          ],
          { width: 150 },
        ),
      ]}
    >
      <PersonDialog {...dialog} appid={appid} onClose={() => setDialog({ open: false, person: null })} />
    </ListView>
  );
}
