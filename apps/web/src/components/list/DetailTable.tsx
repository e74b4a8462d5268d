/**
 * A small table inside a drawer or a page section: every row shown (no pagination), a sideways
 * scroll instead of squeezed columns, and an optional quiet empty text.
 *
 *   <DetailTable<WarningRow> rowKey="warningid" dataSource={warnings} columns={[…]} empty={k('none')} />
 */
import type { ReactNode } from 'react';
import { Empty, Table, type TableProps } from 'antd';

export default function DetailTable<T extends object>({ empty, ...props }: TableProps<T> & { empty?: ReactNode }) {
  return (
    <Table<T>
      size="small"
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      {...props}
    />
  );
}
