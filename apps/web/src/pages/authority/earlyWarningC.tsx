import { useMemo } from 'react';
import { Alert, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MenuTreeNode } from '@xinli/contract';
import { ExpandAllButton, f, ListView, useListPage, useTreeExpansion } from '../../components/list';
import { useLang } from '../../lib/options';
import { allKeys } from '../../lib/tree';

type Row = Omit<MenuTreeNode, 'children'> & { children?: Row[] };

/** Leaves lose their empty children array, so the tree table shows no expand icon for them. */
const toRows = (nodes: MenuTreeNode[]): Row[] =>
  nodes.map(({ children, ...n }) => (children.length ? { ...n, children: toRows(children) } : n));
const codeOf = (r: Row) => r.code;

/**
 * Menu management (SPEC §2 /authority/earlyWarningC, code 00031): the menu tree with its
 * permission codes, routes and visibility. Menus come from the system's menu table; which
 * ones a staff user sees is decided by the roles of Role management.
 */
export default function EarlyWarningC() {
  const { t } = useTranslation();
  const lang = useLang();
  const list = useListPage('as.m.system.menu.selectMenuList', {
    resource: 'authority.menu',
    filters: [f.text('title', { maxLength: 30, width: 220 })],
  });
  // The whole tree opens on load and after each search: it is short and the codes are the point.
  const rows = useMemo(() => (list.rows ? toRows(list.rows) : undefined), [list.rows]);
  const tree = useTreeExpansion<Row>(rows, codeOf);
  const col = list.colFor<Row>();

  return (
    <ListView<Row>
      list={list}
      banner={<Alert type="info" showIcon title={t('authority.menu.note')} style={{ marginBottom: 12 }} />}
      actions={<ExpandAllButton {...tree.button} />}
      below={
        rows ? (
          <div className="list-pagination list-count">{t('authority.menu.count', { count: allKeys(rows, codeOf).length })}</div>
        ) : undefined
      }
      rowKey="code"
      rows={rows}
      expandable={tree.expandable}
      columns={[
        col.text('title', { width: 240 }),
        col.text('code', { width: 150, render: (code: string) => <Typography.Text code>{code}</Typography.Text> }),
        col.text('path'),
        col.text('name'),
        col.text(lang === 'en-US' ? 'titlezh' : 'titleen', { title: col.title('otherTitle') }),
        col.text('hidden', {
          width: 90,
          align: 'center',
          render: (hidden: boolean) =>
            hidden ? <Tag>{t('authority.menu.hiddenTag')}</Tag> : <Tag color="success">{t('authority.menu.shown')}</Tag>,
        }),
        col.text('sort', { width: 100, align: 'center' }),
      ]}
    />
  );
}
