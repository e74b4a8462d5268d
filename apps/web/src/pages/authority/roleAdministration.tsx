import { useState } from 'react';
import { Button, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '@xinli/contract';
import { useSession } from '../../auth';
import { Can } from '../../components/access';
import { DataTable, f, ListPage, ListPagination, ListToolbar, SearchForm, useListPage } from '../../components/list';
import RoleDialog from './RoleDialog';

/** Role management (SPEC §2 /authority/roleAdministration, code 000311). */
export default function RoleAdministration() {
  const { t } = useTranslation();
  const { session } = useSession();
  const list = useListPage('as.m.system.role.selectRoleList', {
    resource: 'system.role',
    filters: [f.text('rolename', { maxLength: 30 }), f.text('rolekey', { maxLength: 32 }), f.enabled(), f.institution()],
  });
  const [dialog, setDialog] = useState<{ open: boolean; role: RoleRow | null }>({ open: false, role: null });
  const close = () => setDialog({ open: false, role: null });
  // A provider sees several institutions' roles: then the institution column tells them apart.
  const manyInstitutions = !!list.rows?.some((r) => r.musercode !== session?.user.musercode);
  const { col } = list;

  return (
    <>
      <ListPage
        search={<SearchForm {...list.searchProps} />}
        toolbar={
          <ListToolbar
            {...list.toolbarProps}
            actions={
              <Can action="as.m.system.role.insertRole">
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, role: null })} data-testid="role-add">
                  {t('common.add')}
                </Button>
              </Can>
            }
          />
        }
        pagination={<ListPagination {...list.paginationProps} />}
      >
        <DataTable<RoleRow>
          rowKey="roleid"
          {...list.tableProps}
          columns={[
            col.text('rolename', {
              render: (name: string, r) => (
                <Space size={4}>
                  {name}
                  {r.rolekey === 'admin' && <Tag color="gold">{t('system.role.builtIn')}</Tag>}
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
                {
                  key: 'delete',
                  action: 'as.m.system.role.deleteRoleById',
                  danger: true,
                  hidden: r.rolekey === 'admin',
                  tooltip: r.usercount > 0 ? t('system.role.inUse', { count: r.usercount }) : undefined,
                  onClick: () =>
                    void list.confirm({
                      action: 'as.m.system.role.deleteRoleById',
                      input: { roleid: r.roleid },
                      content: t('common.deleteConfirm', { name: r.rolename }),
                      success: t('common.deleted'),
                      danger: true,
                    }),
                },
              ],
              { width: 140 },
            ),
          ]}
        />
      </ListPage>
      <RoleDialog open={dialog.open} role={dialog.role} musercode={list.filters.musercode as string | undefined} onClose={close} invalidates={[list.key]} />
    </>
  );
}
