import { Pagination } from 'antd';
import { useTranslation } from 'react-i18next';

/** SPEC §9 pagination: default list size 10, size options 15/50/100/200. */
export const DEFAULT_PAGE_SIZE = 10;
/** SPEC §9: the control's own default limit, for lists that do not choose one. */
export const PAGINATION_DEFAULT_LIMIT = 20;
export const PAGE_SIZE_OPTIONS = [15, 50, 100, 200];

export interface ListPaginationProps {
  total: number;
  page: number;
  pageSize?: number;
  onChange: (page: number, pageSize: number) => void;
}

/**
 * Layout total, sizes, prev, pager, next, jumper (SPEC §9). Hidden while there is nothing to
 * page through. A page past the end (after deletions) is pulled back to the last page.
 */
export default function ListPagination({ total, page, pageSize = PAGINATION_DEFAULT_LIMIT, onChange }: ListPaginationProps) {
  const { t } = useTranslation();
  if (!Number.isFinite(total) || total <= 0) return null;
  const last = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Pagination
      className="list-pagination"
      total={total}
      current={Math.min(page, last)}
      pageSize={pageSize}
      pageSizeOptions={PAGE_SIZE_OPTIONS}
      showSizeChanger
      showQuickJumper
      showTotal={(n) => t('common.total', { total: n })}
      onChange={onChange}
    />
  );
}
