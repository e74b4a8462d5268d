import { useEffect, useMemo, useState } from 'react';
import { App as AntApp, Button, Form, Input, Select, Space } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DeleteOutlined, EditOutlined, NodeCollapseOutlined, NodeExpandOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeptRow } from '@xinli/contract';
import { call } from '../../api';
import { useSession } from '../../auth';
import { queryClient } from '../../query-client';
import { DataTable, ListPage, ListToolbar, SearchForm } from '../../components/list';
import { formatTime, InstitutionSelect, nest, parentKeys, StatusTag, useEnabledOptions, useInstitutions, type Nested } from '../authority/shared';
import DeptDialog from './DeptDialog';

type Filters = { deptname?: string; enabled?: 0 | 1; musercode?: string };
type Row = Nested<DeptRow>;

const LIST = 'as.m.system.dept.selectDeptList';
const idOf = (r: DeptRow) => r.deptid;

/** Department management (SPEC §2 /organization/dept, code 000312): the department tree of the institution. */
export default function Dept() {
  const { t } = useTranslation();
  const { modal, message } = AntApp.useApp();
  const { session } = useSession();
  const enabledOptions = useEnabledOptions();
  const institutions = useInstitutions();
  const [filters, setFilters] = useState<Filters>({});
  const [searchOpen, setSearchOpen] = useState(true);
  const [dialog, setDialog] = useState<{ open: boolean; dept: DeptRow | null; parentid?: string | null; musercode?: string }>({ open: false, dept: null });
  const q = useQuery({ queryKey: [LIST, filters], queryFn: () => call(LIST, filters) });
  const rows = useMemo(() => (q.data ? nest(q.data, idOf, (r) => r.parentid) : undefined), [q.data]);
  const [expanded, setExpanded] = useState<string[]>([]);
  useEffect(() => setExpanded(rows ? parentKeys(rows, idOf) : []), [rows]);
  const allOpen = !!rows && expanded.length > 0 && expanded.length >= parentKeys(rows, idOf).length;
  const manyInstitutions = !!q.data?.some((d) => d.musercode !== session?.user.musercode);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: [LIST] });
    // The user page's department tree follows.
    await queryClient.invalidateQueries({ queryKey: ['as.m.system.user.selectDeptTreeList'] });
  };

  function remove(d: DeptRow) {
    modal.confirm({
      title: t('system.common.systemPrompt'),
      content: t('system.common.deleteConfirm', { name: d.deptname }),
      okText: t('system.common.save'),
      okButtonProps: { danger: true },
      cancelText: t('system.common.cancel'),
      onOk: () =>
        call('as.m.system.dept.deleteDeptById', { deptid: d.deptid })
          .then(() => (message.success(t('system.common.deleted')), refresh()))
          .catch(() => undefined),
    });
  }

  const columns: ColumnsType<Row> = [
    { title: t('system.dept.deptname'), dataIndex: 'deptname' },
    ...(manyInstitutions ? [{ title: t('system.common.institution'), dataIndex: 'insname' }] : []),
    { title: t('system.dept.leader'), dataIndex: 'leader' },
    { title: t('system.dept.phonenumber'), dataIndex: 'phonenumber' },
    { title: t('system.dept.usercount'), dataIndex: 'usercount', align: 'center' },
    { title: t('system.common.sort'), dataIndex: 'sort', align: 'center' },
    { title: t('system.common.status'), dataIndex: 'enabled', align: 'center', render: (enabled: number) => <StatusTag enabled={enabled} /> },
    { title: t('system.common.createdat'), dataIndex: 'createdat', render: formatTime },
    {
      title: t('system.common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, d) => (
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ open: true, dept: d })}>
            {t('system.common.edit')}
          </Button>
          <Button type="link" size="small" icon={<PlusOutlined />} disabled={d.enabled !== 1} onClick={() => setDialog({ open: true, dept: null, parentid: d.deptid, musercode: d.musercode })}>
            {t('system.dept.addChild')}
          </Button>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(d)} data-testid={`dept-delete-${d.deptid}`}>
            {t('system.common.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage
        search={
          <SearchForm<Filters> visible={searchOpen} onSearch={setFilters} onReset={() => setFilters({})}>
            <Form.Item name="deptname" label={t('system.dept.deptname')}>
              <Input allowClear maxLength={30} placeholder={t('system.common.enter', { field: t('system.dept.deptname') })} style={{ width: 200 }} />
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
              <>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, dept: null })} data-testid="dept-add">
                  {t('system.common.add')}
                </Button>
                <Button icon={allOpen ? <NodeCollapseOutlined /> : <NodeExpandOutlined />} onClick={() => setExpanded(allOpen || !rows ? [] : parentKeys(rows, idOf))}>
                  {allOpen ? t('system.common.collapseAll') : t('system.common.expandAll')}
                </Button>
              </>
            }
            searchVisible={searchOpen}
            onToggleSearch={() => setSearchOpen(!searchOpen)}
            onRefresh={() => q.refetch()}
          />
        }
      >
        <DataTable<Row>
          rowKey="deptid"
          columns={columns}
          rows={rows}
          loading={q.isFetching}
          error={q.error}
          onRetry={() => q.refetch()}
          expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded(keys.map(String)) }}
        />
      </ListPage>
      <DeptDialog
        open={dialog.open}
        dept={dialog.dept}
        parentid={dialog.parentid}
        musercode={dialog.musercode ?? filters.musercode}
        onClose={() => setDialog({ open: false, dept: null })}
        onSaved={() => {
          setDialog({ open: false, dept: null });
          void refresh();
        }}
      />
    </>
  );
}
