/**
 * Tree tables (departments, menus): the rows open fully on load and after each search, and an
 * "expand / collapse" toolbar button.
 *
 *   const tree = useTreeExpansion(rows, (r) => r.deptid);
 *   <ListToolbar actions={<ExpandAllButton {...tree.button} />} />  <DataTable expandable={tree.expandable} />
 */
import { useEffect, useState } from 'react';
import { Button } from 'antd';
import { NodeCollapseOutlined, NodeExpandOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { parentKeys } from '../../lib/tree';

export function useTreeExpansion<T extends { children?: T[] }>(rows: T[] | undefined, key: (r: T) => string) {
  const [expanded, setExpanded] = useState<string[]>([]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setExpanded(rows ? parentKeys(rows, key) : []), [rows]);
  const allOpen = !!rows && expanded.length > 0 && expanded.length >= parentKeys(rows, key).length;
  return {
    button: { allOpen, onClick: () => setExpanded(allOpen || !rows ? [] : parentKeys(rows, key)) },
    expandable: { expandedRowKeys: expanded, onExpandedRowsChange: (keys: readonly React.Key[]) => setExpanded(keys.map(String)) },
  };
}

export function ExpandAllButton({ allOpen, onClick }: { allOpen: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button icon={allOpen ? <NodeCollapseOutlined /> : <NodeExpandOutlined />} onClick={onClick}>
      {allOpen ? t('common.collapseAll') : t('common.expandAll')}
    </Button>
  );
}
