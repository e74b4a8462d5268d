import { useState } from 'react';
import { Button } from 'antd';
import { FileSearchOutlined, QrcodeOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Gender, type CuserRow } from '@xinli/contract';
import { Can } from '../../components/access';
import { ListView } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { archiveLink } from '../../features/links';
import { maskIdCard, pagesOf } from '../../lib/populations';
import PersonDialog from '../../features/persons/PersonDialog';
import { PersonTransfer, useDeletePerson, usePersonListPage, addPersonButton } from '../../features/persons/usePersonActions';
import GiveDialog, { type GivePerson } from '../../features/reports/GiveDialog';

const LIST = 'as.m.cuser.getCUserPageList';

/**
 * The persons of an /empower page: register, edit and delete persons, and give them
 * assessments, one by one or the ticked ones at once. A population's page passes its `appid`.
 */
export default function PersonList({ appid }: { appid?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const institutions = useInstitutions();
  const list = usePersonListPage(LIST, appid);
  const [dialog, setDialog] = useState<{ open: boolean; person: CuserRow | null }>({ open: false, person: null });
  const [selected, setSelected] = useState<CuserRow[]>([]);
  const [give, setGive] = useState<GivePerson[]>([]);
  const remove = useDeletePerson();
  const { col } = list;
  const reports = pagesOf(appid)?.reports;
  return (
    <ListView<CuserRow>
      list={list}
      rowKey="cusercode"
      add={addPersonButton(t('archives.person.add'), () => setDialog({ open: true, person: null }))}
      actions={
        <>
          <Can action="as.m.user.insertCUserAssessCodes">
            <Button
              icon={<QrcodeOutlined />}
              disabled={selected.length === 0}
              onClick={() => setGive(selected)}
              data-testid="give-selected"
            >
              {selected.length ? t('empower.assess.giveSelected', { count: selected.length }) : t('empower.assess.give')}
            </Button>
          </Can>
          <PersonTransfer appid={appid} filters={list.filters} />
          {reports && (
            <Can action="as.m.exam.getCUserReportPageList">
              <Button icon={<FileSearchOutlined />} onClick={() => navigate(reports)} data-testid="to-reports">
                {t('empower.assess.reports')}
              </Button>
            </Can>
          )}
        </>
      }
      rowSelection={{
        selectedRowKeys: selected.map((p) => p.cusercode),
        onChange: (_, rows) => setSelected(rows),
        preserveSelectedRowKeys: true,
      }}
      columns={[
        col.text('realname', { width: 110 }),
        col.enumTag('gender', Gender, { width: 70 }),
        col.text('birthdate', { width: 110, render: (v: string) => v || '—' }),
        col.phone('phonenumber'),
        col.text('idcard', { width: 180, render: (v: string) => maskIdCard(v) || '—' }),
        ...(appid ? [] : [col.text('appname', { title: t('archives.person.appid'), width: 130 })]),
        ...(institutions.many ? [col.text('insname', { width: 160 })] : []),
        col.time('createdat'),
        col.actions(
          (r) => [
            {
              key: 'give',
              label: t('empower.assess.giveRow'),
              action: 'as.m.user.insertCUserAssessCode',
              onClick: () => setGive([r]),
              testId: `give-${r.cusercode}`,
            },
            { key: 'view', label: t('archives.person.view'), onClick: () => navigate(archiveLink(r.appid, r.cusercode)) },
            { key: 'edit', action: 'as.m.cuser.updateCUser', hidden: !!r.anonymisedat, onClick: () => setDialog({ open: true, person: r }), more: true },
            { key: 'delete', action: 'as.m.cuser.deleteCUser', danger: true, onClick: () => void remove(r), more: true },
          ],
          { width: 170 },
        ),
      ]}
    >
      <PersonDialog {...dialog} appid={appid} onClose={() => setDialog({ open: false, person: null })} />
      <GiveDialog persons={give} appid={appid} onClose={() => setGive([])} />
    </ListView>
  );
}
