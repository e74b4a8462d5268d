import { useState } from 'react';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '@xinli/contract';
import { useSession } from '../../auth';
import { f, ListView, useListPage } from '../../components/list';
import RoleDialog from './RoleDialog';

/** Role management (SPEC §2 /authority/roleAdministration, code 000311). */
export default function RoleAdministration() {
  const { t } = useTranslation();
  const { session } = useSession();
  const list = useListPage('as.m.system.role.selectRoleList', {
    resource: 'authority.role',
    filters: [f.text('rolename', { maxLength: 30 }), f.text('rolekey', { maxLength: 32 }), f.enabled(), f.institution()],
  });
  const [dialog, setDialog] = useState<{ open: boolean; role: RoleRow | null }>({ open: false, role: null });
  const close = () => setDialog({ open: false, role: null });
  // A provider sees several institutions' roles: then the institution column tells them apart.
  const manyInstitutions = !!list.rows?.some((r) => r.musercode !== session?.user.musercode);
  const { col } = list;

  return (
    <ListView<RoleRow>
      list={list}
      add={{ action: 'as.m.system.role.insertRole', onClick: () => setDialog({ open: true, role: null }), testId: 'role-add' }}
      rowKey="roleid"
      columns={[
        col.text('rolename', {
          render: (name: string, r) => (
            <Space size={4}>
              {name}
              {r.rolekey === 'admin' && <Tag color="gold">{t('authority.role.builtIn')}</Tag>}
            </Space>
          ),
        }),
        col.text('rolekey'),
        ...(manyInstitutions ? [col.text('insname', { title: col.title('institution') })] : []),
        col.text('sort', { width: 100, align: 'center' }),
        col.text('usercount', { width: 90, align: 'center' }),
        col.enabled({
          action: 'as.m.system.role.updateRole',
          input: (r, enabled) => ({ roleid: r.roleid, enabled }),
          name: (r) => r.rolename,
          disabled: (r) => r.rolekey === 'admin',
        }),
        col.time('createdat'),
        col.actions(
          (r) => [
            { key: 'edit', action: 'as.m.system.role.updateRole', onClick: () => setDialog({ open: true, role: r }) },
            col.remove('as.m.system.role.deleteRoleById', { roleid: r.roleid }, r.rolename, {
              hidden: r.rolekey === 'admin',
              tooltip: r.usercount > 0 ? t('authority.role.inUse', { count: r.usercount }) : undefined,
            }),
          ],
          { width: 140 },
        ),
      ]}
    >
      <RoleDialog
        open={dialog.open}
        role={dialog.role}
        musercode={list.filters.musercode as string | undefined}
        onClose={close}
        invalidates={[list.key]}
      />
    </ListView>
  );
}
