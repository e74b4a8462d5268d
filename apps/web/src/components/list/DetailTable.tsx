/**
 * A small table inside a drawer or a page section: a sideways scroll instead of squeezed columns
 * and an optional quiet empty text. Every row is shown, unless
 * - `pageSize`: the rows it holds are paged here when there are more than that, or
 * - `paged`: the server pages them (page, size and total of its answer).
 *
 *   <DetailTable<WarningRow> rowKey="warningid" dataSource={warnings} columns={[…]} empty={k('none')} />
 *   <DetailTable<Member> dataSource={q.data?.rows} paged={{ page, pageSize: 10, total: q.data?.total ?? 0, onChange: setPage }} … />
 */
import type { ReactNode } from 'react';
import { Empty, Table, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';

export interface ServerPaging {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
}

export default function DetailTable<T extends object>({
  empty,
  pageSize,
  paged,
  ...props
}: TableProps<T> & { empty?: ReactNode; pageSize?: number; paged?: ServerPaging }) {
  const { t } = useTranslation();
  const pagination: TableProps<T>['pagination'] = paged
    ? {
        current: paged.page,
        pageSize: paged.pageSize,
        total: paged.total,
        onChange: paged.onChange,
        showSizeChanger: false,
        showTotal: (total) => t('common.total', { total }),
        hideOnSinglePage: true,
      }
    : pageSize && (props.dataSource?.length ?? 0) > pageSize
      ? { pageSize, showSizeChanger: false }
      : false;
  return (
    <Table<T>
      size="small"
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      {...props}
    />
  );
}
