import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Form, Input, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { NodeCollapseOutlined, NodeExpandOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MenuTreeNode } from '@xinli/contract';
import { call } from '../../api';
import { DataTable, ListPage, ListToolbar, SearchForm } from '../../components/list';
import { allKeys, parentKeys, useLang } from './shared';

type Filters = { title?: string };
type Row = Omit<MenuTreeNode, 'children'> & { children?: Row[] };

/** Leaves lose their empty children array, so the tree table shows no expand icon for them. */
const toRows = (nodes: MenuTreeNode[]): Row[] => nodes.map(({ children, ...n }) => (children.length ? { ...n, children: toRows(children) } : n));
const codeOf = (r: Row) => r.code;

/**
 * Menu management (SPEC §2 /authority/earlyWarningC, code 00031): the menu tree with its
 * permission codes, routes and visibility. Menus come from the system's menu table; which
 * ones a staff user sees is decided by the roles of Role management.
 */
export default function EarlyWarningC() {
  const { t } = useTranslation();
  const lang = useLang();
  const [filters, setFilters] = useState<Filters>({});
  const [searchOpen, setSearchOpen] = useState(true);
  const q = useQuery({
    queryKey: ['as.m.system.menu.selectMenuList', filters, lang],
    queryFn: () => call('as.m.system.menu.selectMenuList', filters),
  });
  const rows = useMemo(() => (q.data ? toRows(q.data) : undefined), [q.data]);
  const [expanded, setExpanded] = useState<string[]>([]);
  // Open the whole tree on load and after each search: it is short and the codes are the point.
  useEffect(() => setExpanded(rows ? parentKeys(rows, codeOf) : []), [rows]);
  const allOpen = !!rows && expanded.length >= parentKeys(rows, codeOf).length && expanded.length > 0;

  const columns: ColumnsType<Row> = [
    { title: t('system.menu.title'), dataIndex: 'title', width: 260 },
    { title: t('system.menu.code'), dataIndex: 'code', width: 150, render: (code: string) => <Typography.Text code>{code}</Typography.Text> },
    { title: t('system.menu.path'), dataIndex: 'path' },
    { title: t('system.menu.name'), dataIndex: 'name' },
    {
      title: t('system.menu.otherTitle'),
      dataIndex: lang === 'en-US' ? 'titlezh' : 'titleen',
    },
    {
      title: t('system.menu.hidden'),
      dataIndex: 'hidden',
      width: 90,
      align: 'center',
      render: (hidden: boolean) => (hidden ? <Tag>{t('system.menu.hiddenTag')}</Tag> : <Tag color="success">{t('system.menu.shown')}</Tag>),
    },
    { title: t('system.common.sort'), dataIndex: 'sort', width: 100, align: 'center' },
  ];

  return (
    <ListPage
      search={
        <SearchForm<Filters> visible={searchOpen} onSearch={setFilters} onReset={() => setFilters({})}>
          <Form.Item name="title" label={t('system.menu.title')}>
            <Input allowClear maxLength={30} placeholder={t('system.common.enter', { field: t('system.menu.title') })} style={{ width: 220 }} />
          </Form.Item>
        </SearchForm>
      }
      toolbar={
        <>
          <Alert type="info" showIcon title={t('system.menu.note')} style={{ marginBottom: 12 }} />
          <ListToolbar
            actions={
              <Button
                icon={allOpen ? <NodeCollapseOutlined /> : <NodeExpandOutlined />}
                onClick={() => setExpanded(allOpen || !rows ? [] : parentKeys(rows, codeOf))}
              >
                {allOpen ? t('system.common.collapseAll') : t('system.common.expandAll')}
              </Button>
            }
            searchVisible={searchOpen}
            onToggleSearch={() => setSearchOpen(!searchOpen)}
            onRefresh={() => q.refetch()}
          />
        </>
      }
      pagination={rows ? <div className="list-pagination" style={{ color: '#888' }}>{t('system.menu.count', { count: allKeys(rows, codeOf).length })}</div> : undefined}
    >
      <DataTable<Row>
        rowKey="code"
        columns={columns}
        rows={rows}
        loading={q.isFetching}
        error={q.error}
        onRetry={() => q.refetch()}
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded(keys.map(String)) }}
      />
    </ListPage>
  );
}
