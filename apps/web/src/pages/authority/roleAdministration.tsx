import { useMemo, useState } from 'react';
import { App as AntApp, Button, Form, Input, Select, Space, Switch, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '@xinli/contract';
import { call } from '../../api';
import { useSession } from '../../auth';
import { queryClient } from '../../query-client';
import { DataTable, ListPage, ListPagination, ListToolbar, SearchForm, useListQuery, useListState } from '../../components/list';
import RoleDialog from './RoleDialog';
import { formatTime, InstitutionSelect, useEnabledOptions, useInstitutions } from './shared';

type Filters = { rolename?: string; rolekey?: string; enabled?: 0 | 1; musercode?: string };

const LIST = 'as.m.system.role.selectRoleList';

/** Role management (SPEC §2 /authority/roleAdministration, code 000311). */
export default function RoleAdministration() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const { session } = useSession();
  const list = useListState<Filters>();
  const [searchOpen, setSearchOpen] = useState(true);
  const [dialog, setDialog] = useState<{ open: boolean; role: RoleRow | null }>({ open: false, role: null });
  const q = useListQuery(LIST, list.input);
  const enabledOptions = useEnabledOptions();
  const institutions = useInstitutions();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [LIST] });

  // A provider sees several institutions' roles: then the institution column tells them apart.
  const rows = q.data?.rows;
  const manyInstitutions = useMemo(() => !!rows?.some((r) => r.musercode !== session?.user.musercode), [rows, session]);

  function toggle(role: RoleRow, on: boolean) {
    modal.confirm({
      title: t('system.common.systemPrompt'),
      content: t(on ? 'system.common.enabledOn' : 'system.common.enabledOff', { name: role.rolename }) + '?',
      okText: t('system.common.save'),
      cancelText: t('system.common.cancel'),
      onOk: () =>
        call('as.m.system.role.updateRole', { roleid: role.roleid, enabled: on ? 1 : 0 })
          .then(() => (message.success(t(on ? 'system.common.enabledOn' : 'system.common.enabledOff', { name: role.rolename })), refresh()))
          .catch(() => undefined),
    });
  }

  function remove(role: RoleRow) {
    modal.confirm({
      title: t('system.common.systemPrompt'),
      content: t('system.common.deleteConfirm', { name: role.rolename }),
      okText: t('system.common.save'),
      okButtonProps: { danger: true },
      cancelText: t('system.common.cancel'),
      onOk: () =>
        call('as.m.system.role.deleteRoleById', { roleid: role.roleid })
          .then(() => (message.success(t('system.common.deleted')), refresh()))
          .catch(() => undefined),
    });
  }

  const columns: ColumnsType<RoleRow> = [
    {
      title: t('system.role.rolename'),
      dataIndex: 'rolename',
      render: (name: string, r) => (
        <Space size={4}>
          {name}
          {r.rolekey === 'admin' && <Tag color="gold">{t('system.role.builtIn')}</Tag>}
        </Space>
      ),
    },
    { title: t('system.role.rolekey'), dataIndex: 'rolekey' },
    ...(manyInstitutions ? [{ title: t('system.common.institution'), dataIndex: 'insname' }] : []),
    { title: t('system.common.sort'), dataIndex: 'sort', width: 100, align: 'center' },
    { title: t('system.role.usercount'), dataIndex: 'usercount', width: 90, align: 'center' },
    {
      title: t('system.common.status'),
      dataIndex: 'enabled',
      width: 90,
      align: 'center',
      render: (enabled: number, r) => (
        <Switch size="small" checked={enabled === 1} disabled={r.rolekey === 'admin'} onChange={(on) => toggle(r, on)} aria-label={t('system.common.status')} />
      ),
    },
    { title: t('system.common.createdat'), dataIndex: 'createdat', width: 170, render: formatTime },
    {
      title: t('system.common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, role: r })}>
            {t('system.common.edit')}
          </Button>
          {r.rolekey !== 'admin' && (
            <Tooltip title={r.usercount > 0 ? t('system.role.inUse', { count: r.usercount }) : undefined}>
              <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(r)}>
                {t('system.common.delete')}
              </Button>
            </Tooltip>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage
        search={
          <SearchForm<Filters> visible={searchOpen} onSearch={list.search} onReset={list.reset}>
            <Form.Item name="rolename" label={t('system.role.rolename')}>
              <Input allowClear placeholder={t('system.common.enter', { field: t('system.role.rolename') })} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="rolekey" label={t('system.role.rolekey')}>
              <Input allowClear placeholder={t('system.common.enter', { field: t('system.role.rolekey') })} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="enabled" label={t('system.common.status')}>
              <Select allowClear options={enabledOptions} placeholder={t('system.common.all')} style={{ width: 140 }} />
            </Form.Item>
            {institutions.many && (
              <Form.Item name="musercode" label={t('system.common.institution')}>
                <InstitutionSelect allowClear placeholder={t('system.common.all')} style={{ width: 200 }} />
              </Form.Item>
            )}
          </SearchForm>
        }
        toolbar={
          <ListToolbar
            actions={
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, role: null })} data-testid="role-add">
                {t('system.common.add')}
              </Button>
            }
            searchVisible={searchOpen}
            onToggleSearch={() => setSearchOpen(!searchOpen)}
            onRefresh={() => q.refetch()}
          />
        }
        pagination={<ListPagination total={q.data?.total ?? 0} page={list.page} pageSize={list.pageSize} onChange={list.paginate} />}
      >
        <DataTable<RoleRow> rowKey="roleid" columns={columns} rows={rows} loading={q.isFetching} error={q.error} onRetry={() => q.refetch()} />
      </ListPage>
      <RoleDialog
        open={dialog.open}
        role={dialog.role}
        musercode={list.filters.musercode}
        onClose={() => setDialog({ open: false, role: null })}
        onSaved={() => {
          setDialog({ open: false, role: null });
          void refresh();
        }}
      />
    </>
  );
}
