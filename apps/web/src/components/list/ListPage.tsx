import type { ReactNode } from 'react';
import './list.css';

export interface ListPageProps {
  search?: ReactNode;
  toolbar?: ReactNode;
  /** The table (DataTable). */
  children: ReactNode;
  /** The pagination (ListPagination). */
  pagination?: ReactNode;
}

/** The RuoYi list page frame: search form, toolbar, table, pagination, on one white card. */
export default function ListPage({ search, toolbar, children, pagination }: ListPageProps) {
  return (
    <div className="list-page">
      {search}
      {toolbar}
      {children}
      {pagination}
    </div>
  );
}
