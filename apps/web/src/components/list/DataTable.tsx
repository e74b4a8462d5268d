import { Table, type TableProps } from 'antd';
import { EmptyState, ErrorState } from './states';

export interface DataTableProps<T> extends Omit<TableProps<T>, 'pagination' | 'dataSource'> {
  rows: T[] | undefined;
  loading?: boolean;
  error?: unknown;
  onRetry?: () => void;
}

/**
 * The list table: bordered, no built-in pagination (ListPagination sits under it), the shared
 * empty state, and the error state when loading failed and nothing is on screen. Read for the
 * first time, it shows its spinner over a blank body: over the empty state, it said "no data".
 */
export default function DataTable<T extends object>({ rows, loading, error, onRetry, ...props }: DataTableProps<T>) {
  if (error && !rows) return <ErrorState error={error} onRetry={onRetry} />;
  return (
    <Table<T>
      size="middle"
      bordered
      scroll={{ x: 'max-content' }}
      {...props}
      className={props.className ? `list-table ${props.className}` : 'list-table'}
      dataSource={rows ?? []}
      loading={loading}
      pagination={false}
      locale={{
        emptyText: <EmptyState />,
        ...props.locale,
        ...(loading && !rows && { emptyText: <div className="list-table-waiting" /> }),
      }}
    />
  );
}
