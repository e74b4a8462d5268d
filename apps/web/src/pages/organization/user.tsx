import { useMemo, useState } from 'react';
import { App as AntApp, Button, Card, Dropdown, Empty, Form, Input, Select, Space, Spin, Switch, Tag, Tree, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { DataNode } from 'antd/es/tree';
import { ApartmentOutlined, DeleteOutlined, DoubleRightOutlined, EditOutlined, KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeptTreeNode, UserRow } from '@xinli/contract';
import { call } from '../../api';
import { useSession } from '../../auth';
import { queryClient } from '../../query-client';
import { DataTable, ErrorState, ListPage, ListPagination, ListToolbar, SearchForm, useListQuery, useListState } from '../../components/list';
import { formatTime, InstitutionSelect, useEnabledOptions, useInstitutions } from '../authority/shared';
import UserDialog from './UserDialog';
import ResetPwdDialog from './ResetPwdDialog';
import './organization.css';

type Filters = { sysusername?: string; realname?: string; phonenumber?: string; enabled?: 0 | 1; musercode?: string };
const LIST = 'as.m.system.user.selectUserList';

/** Keeps the departments whose name contains the text, with their ancestors. */
function filterTree(nodes: DeptTreeNode[], text: string): DeptTreeNode[] {
  if (!text) return nodes;
  return nodes.flatMap((n) => {
    const children = filterTree(n.children, text);
    return n.deptname.includes(text) || children.length ? [{ ...n, children }] : [];
  });
}

const toTreeData = (nodes: DeptTreeNode[]): DataNode[] =>
  nodes.map((n) => ({ key: n.deptid, title: n.deptname, children: n.children.length ? toTreeData(n.children) : undefined }));

/** The institution of a department in the tree. */
function institutionOf(nodes: DeptTreeNode[], deptid: string): string | undefined {
  for (const n of nodes) {
    if (n.deptid === deptid) return n.musercode;
    const below = institutionOf(n.children, deptid);
    if (below) return below;
  }
  return undefined;
}

/** The department tree on the left of the user page: choosing one filters the list to its subtree. */
function DeptFilter({ value, onChange }: { value: string | undefined; onChange: (dept: { deptid: string; musercode: string } | undefined) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const q = useQuery({ queryKey: ['as.m.system.user.selectDeptTreeList', {}], queryFn: () => call('as.m.system.user.selectDeptTreeList', {}) });
  const shown = useMemo(() => filterTree(q.data ?? [], text.trim()), [q.data, text]);
  return (
    <Card size="small" className="user-dept-card" title={<Space><ApartmentOutlined />{t('system.user.dept')}</Space>}>
      <Input.Search allowClear placeholder={t('system.user.deptSearch')} onChange={(e) => setText(e.target.value)} style={{ marginBottom: 8 }} />
      {q.error ? (
        <ErrorState error={q.error} onRetry={() => q.refetch()} />
      ) : q.isLoading ? (
        <Spin style={{ display: 'block', padding: 24 }} />
      ) : shown.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree
          key={text}
          blockNode
          defaultExpandAll
          treeData={toTreeData(shown)}
          selectedKeys={value ? [value] : []}
          // Choosing the chosen department again goes back to all departments.
          onSelect={(keys) => {
            const id = keys.length ? String(keys[0]) : undefined;
            onChange(id ? { deptid: id, musercode: institutionOf(q.data ?? [], id) ?? '' } : undefined);
          }}
          data-testid="user-dept-tree"
        />
      )}
    </Card>
  );
}

/** User management (SPEC §2 /organization/user, code 000313): the staff users of the institution. */
export default function User() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const { session } = useSession();
  const me = session?.user.userid ?? null;
  const enabledOptions = useEnabledOptions();
  const institutions = useInstitutions();
  const [dept, setDept] = useState<{ deptid: string; musercode: string } | undefined>();
  const deptid = dept?.deptid;
  const list = useListState<Filters>();
  const [searchOpen, setSearchOpen] = useState(true);
  const [dialog, setDialog] = useState<{ open: boolean; user: UserRow | null }>({ open: false, user: null });
  const [resetting, setResetting] = useState<UserRow | null>(null);
  const q = useListQuery(LIST, { ...list.input, ...(deptid ? { deptid } : {}) });
  const rows = q.data?.rows;
  const manyInstitutions = !!rows?.some((r) => r.musercode !== session?.user.musercode);
  const refresh = () => queryClient.invalidateQueries({ queryKey: [LIST] });

  function toggle(u: UserRow, on: boolean) {
    const apply = async () => {
      await call('as.m.system.user.enableUser', { userid: u.userid, enabled: on ? 1 : 0 });
      message.success(t(on ? 'system.common.enabledOn' : 'system.common.enabledOff', { name: u.sysusername }));
      await refresh();
    };
    if (on) return void apply().catch(() => undefined);
    modal.confirm({
      title: t('system.common.systemPrompt'),
      content: t('system.user.disableConfirm', { name: u.sysusername }),
      okText: t('system.common.save'),
      cancelText: t('system.common.cancel'),
      onOk: () => apply().catch(() => undefined),
    });
  }

  function remove(u: UserRow) {
    modal.confirm({
      title: t('system.common.systemPrompt'),
      content: t('system.common.deleteConfirm', { name: u.sysusername }),
      okText: t('system.common.save'),
      okButtonProps: { danger: true },
      cancelText: t('system.common.cancel'),
      onOk: () =>
        call('as.m.system.user.deleteUserById', { userid: u.userid })
          .then(() => (message.success(t('system.common.deleted')), refresh()))
          .catch(() => undefined),
    });
  }

  const columns: ColumnsType<UserRow> = [
    {
      title: t('system.user.sysusername'),
      dataIndex: 'sysusername',
      render: (name: string, u) => (
        <Space size={4}>
          {name}
          {u.userid === me && <Tag color="blue">{t('system.user.self')}</Tag>}
        </Space>
      ),
    },
    { title: t('system.user.realname'), dataIndex: 'realname' },
    ...(manyInstitutions ? [{ title: t('system.common.institution'), dataIndex: 'insname' }] : []),
    { title: t('system.user.dept'), dataIndex: 'deptname', render: (name: string) => name || <Typography.Text type="secondary">-</Typography.Text> },
    { title: t('system.user.phonenumber'), dataIndex: 'phonenumber' },
    {
      title: t('system.user.roles'),
      dataIndex: 'roles',
      render: (roles: UserRow['roles']) => (
        <Space size={[0, 4]} wrap>
          {roles.map((r) => (
            <Tag key={r.roleid}>{r.rolename}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t('system.common.status'),
      dataIndex: 'enabled',
      align: 'center',
      render: (enabled: number, u) => (
        <Switch size="small" checked={enabled === 1} disabled={u.userid === me} onChange={(on) => toggle(u, on)} aria-label={t('system.common.status')} data-testid={`user-enabled-${u.sysusername}`} />
      ),
    },
    { title: t('system.common.createdat'), dataIndex: 'createdat', render: formatTime },
    {
      title: t('system.common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, u) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, user: u })}>
            {t('system.common.edit')}
          </Button>
          {u.userid !== me && (
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(u)}>
              {t('system.common.delete')}
            </Button>
          )}
          {/* RuoYi's "more" menu keeps the row short: the rarer actions live here. */}
          <Dropdown menu={{ items: [{ key: 'resetPwd', icon: <KeyOutlined />, label: t('system.user.resetPwd'), onClick: () => setResetting(u) }] }}>
            <Button type="link" size="small" icon={<DoubleRightOutlined />} data-testid={`user-more-${u.sysusername}`}>
              {t('system.user.more')}
            </Button>
          </Dropdown>
        </Space>
      ),
    },
  ];

  return (
    <div className="user-page">
      <DeptFilter
        value={deptid}
        onChange={(d) => {
          setDept(d);
          list.paginate(1, list.pageSize);
        }}
      />
      <div className="user-page-main">
        <ListPage
          search={
            <SearchForm<Filters> visible={searchOpen} onSearch={list.search} onReset={list.reset}>
              <Form.Item name="sysusername" label={t('system.user.sysusername')}>
                <Input allowClear maxLength={30} placeholder={t('system.common.enter', { field: t('system.user.sysusername') })} style={{ width: 170 }} />
              </Form.Item>
              <Form.Item name="realname" label={t('system.user.realname')}>
                <Input allowClear maxLength={30} placeholder={t('system.common.enter', { field: t('system.user.realname') })} style={{ width: 170 }} />
              </Form.Item>
              <Form.Item name="phonenumber" label={t('system.user.phonenumber')}>
                <Input allowClear maxLength={20} placeholder={t('system.common.enter', { field: t('system.user.phonenumber') })} style={{ width: 170 }} />
              </Form.Item>
              <Form.Item name="enabled" label={t('system.common.status')}>
                <Select allowClear options={enabledOptions} placeholder={t('system.common.all')} style={{ width: 120 }} />
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
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, user: null })} data-testid="user-add">
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
          <DataTable<UserRow> rowKey="userid" columns={columns} rows={rows} loading={q.isFetching} error={q.error} onRetry={() => q.refetch()} />
        </ListPage>
      </div>
      <UserDialog
        open={dialog.open}
        user={dialog.user}
        deptid={deptid}
        musercode={dept?.musercode ?? list.filters.musercode}
        onClose={() => setDialog({ open: false, user: null })}
        onSaved={() => {
          setDialog({ open: false, user: null });
          void refresh();
        }}
      />
      <ResetPwdDialog user={resetting} onClose={() => setResetting(null)} />
    </div>
  );
}
