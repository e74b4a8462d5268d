import { useMemo, useState } from 'react';
import { Checkbox, Empty, Space, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import type { Key } from 'react';
import { useTranslation } from 'react-i18next';
import type { MenuTreeNode } from '@xinli/contract';
import { allKeys, parentKeys } from '../../lib/tree';

export interface MenuTreePickerProps {
  menus: MenuTreeNode[];
  /** The codes given, parents included (what the server stores). */
  value?: string[];
  onChange?: (codes: string[]) => void;
  disabled?: boolean;
}

const keyOf = (n: MenuTreeNode) => n.code;

function toTreeData(menus: MenuTreeNode[]): DataNode[] {
  return menus.map((n) => ({
    key: n.code,
    title: (
      <span>
        {n.title} <span style={{ color: '#999', fontSize: 12 }}>{n.code}</span>
      </span>
    ),
    children: n.children.length ? toTreeData(n.children) : undefined,
  }));
}

/** Leaves of the tree among the given codes: what a linked tree shows as checked. */
function checkedLeaves(menus: MenuTreeNode[], codes: Set<string>): string[] {
  return menus.flatMap((n) => (n.children.length ? checkedLeaves(n.children, codes) : codes.has(n.code) ? [n.code] : []));
}

/**
 * The menu-permission tree of the role dialog (RuoYi's shape): expand/collapse, check all/none
 * and parent-child linkage toggles above a checkable tree. With linkage on, a parent is given
 * whenever any of its children is (so the sidebar can show it), and saving sends the checked
 * and half-checked codes.
 */
export default function MenuTreePicker({ menus, value = [], onChange, disabled }: MenuTreePickerProps) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState<Key[]>(() => parentKeys(menus, keyOf));
  const [linked, setLinked] = useState(true);
  const every = useMemo(() => allKeys(menus, keyOf), [menus]);
  const chosen = useMemo(() => new Set(value), [value]);
  const treeData = useMemo(() => toTreeData(menus), [menus]);

  if (menus.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('authority.role.noMenus')} />;

  const allChecked = every.length > 0 && every.every((c) => chosen.has(c));
  return (
    <div className="menu-tree-picker" data-testid="menu-tree">
      <Space wrap size={16} style={{ marginBottom: 8 }}>
        <Checkbox checked={expanded.length > 0} onChange={(e) => setExpanded(e.target.checked ? parentKeys(menus, keyOf) : [])}>
          {t('common.expandAll')}/{t('common.collapseAll')}
        </Checkbox>
        <Checkbox
          disabled={disabled}
          checked={allChecked}
          indeterminate={!allChecked && chosen.size > 0}
          onChange={(e) => onChange?.(e.target.checked ? every : [])}
        >
          {t('authority.role.checkAll')}
        </Checkbox>
        <Checkbox checked={linked} onChange={(e) => setLinked(e.target.checked)}>
          {t('authority.role.linkage')}
        </Checkbox>
      </Space>
      <div style={{ border: '1px solid #e5e6e7', borderRadius: 6, padding: 8, maxHeight: 360, overflow: 'auto' }}>
        <Tree
          checkable
          selectable={false}
          disabled={disabled}
          checkStrictly={!linked}
          treeData={treeData}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys)}
          checkedKeys={linked ? checkedLeaves(menus, chosen) : { checked: value, halfChecked: [] }}
          onCheck={(keys, info) => {
            if (Array.isArray(keys)) onChange?.([...keys, ...(info.halfCheckedKeys ?? [])].map(String));
            else onChange?.(keys.checked.map(String));
          }}
        />
      </div>
    </div>
  );
}
