import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Card, Empty, Input, Space, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { ApartmentOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState, LoadingState } from './states';
import './list.css';

interface Node<N> {
  children: N[];
}

/** Keeps the nodes whose label contains the text, with their ancestors. */
function filterTree<N extends Node<N>>(nodes: N[], text: string, label: (n: N) => string): N[] {
  if (!text) return nodes;
  return nodes.flatMap((n) => {
    const children = filterTree(n.children, text, label);
    return label(n).includes(text) || children.length ? [{ ...n, children }] : [];
  });
}

export interface TreeFilterProps<N extends Node<N>> {
  title: ReactNode;
  searchPlaceholder: string;
  query: UseQueryResult<N[]>;
  /** The text the search box matches. */
  label: (n: N) => string;
  toTreeData: (nodes: N[]) => DataNode[];
  value: string | undefined;
  /** Choosing the chosen node again clears the filter (undefined). */
  onSelect: (key: string | undefined) => void;
  testId: string;
}

/**
 * A searchable tree in a card that filters the list beside it (the department tree of the user
 * page, the category tree of the account pages), with loading, empty and error states.
 */
export function TreeFilter<N extends Node<N>>({
  title,
  searchPlaceholder,
  query,
  label,
  toTreeData,
  value,
  onSelect,
  testId,
}: TreeFilterProps<N>) {
  const [text, setText] = useState('');
  const shown = useMemo(() => filterTree(query.data ?? [], text.trim(), label), [query.data, text, label]);
  return (
    <Card
      size="small"
      className="list-tree-card"
      title={
        <Space>
          <ApartmentOutlined />
          {title}
        </Space>
      }
    >
      <Input.Search allowClear placeholder={searchPlaceholder} onChange={(e) => setText(e.target.value)} style={{ marginBottom: 8 }} />
      {query.error ? (
        <ErrorState error={query.error} onRetry={() => query.refetch()} />
      ) : query.isLoading ? (
        <LoadingState />
      ) : shown.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree
          key={text}
          blockNode
          defaultExpandAll
          treeData={toTreeData(shown)}
          selectedKeys={value ? [value] : []}
          onSelect={(keys) => onSelect(keys.length ? String(keys[0]) : undefined)}
          data-testid={testId}
        />
      )}
    </Card>
  );
}

/**
 * Sets (or, empty, clears) one query-string parameter beside the list's filters, the list's own
 * page going back to the first: a choice made outside the search form (a tree node, a stage tab).
 */
export function useSetListParam(): (name: string, value: string | null | undefined) => void {
  const [, setParams] = useSearchParams();
  return useCallback(
    (name, value) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value) next.set(name, value);
          else next.delete(name);
          next.delete('page');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
}

/**
 * A tree filter's choice, kept in the query string beside the list's filters (`?category=…`), so
 * a reload or a shared link shows the same list. Choosing goes back to the list's first page; the
 * list's reset leaves it (the tree shows what is chosen).
 */
export function useTreeParam(name: string): [string | undefined, (key: string | undefined) => void] {
  const [params] = useSearchParams();
  const set = useSetListParam();
  const choose = useCallback((key: string | undefined) => set(name, key), [name, set]);
  return [params.get(name) || undefined, choose];
}

/**
 * The tree on the left, the list on the right; stacked (tree above, kept short) on screens
 * narrower than `stackBelow`: a list with many columns needs the whole width sooner.
 */
export function WithTreeFilter({ tree, children, stackBelow = 'md' }: { tree: ReactNode; children: ReactNode; stackBelow?: 'md' | 'xl' }) {
  return (
    <div className={`list-with-tree list-with-tree-${stackBelow}`}>
      {tree}
      <div className="list-with-tree-main">{children}</div>
    </div>
  );
}
