/**
 * A short list of rows, each its content with its actions at the end: the notification panel,
 * the PDF exports. antd 6.6 deprecated its List, and its successor Listy is a virtual list for
 * thousands of rows of one height; these lists hold a page of rows of several heights.
 */
import type { HTMLAttributes, ReactNode } from 'react';
import { Space } from 'antd';

export function RowList({ children, className, ...rest }: HTMLAttributes<HTMLUListElement>) {
  return (
    <ul className={className ? `row-list ${className}` : 'row-list'} {...rest}>
      {children}
    </ul>
  );
}

interface RowItemProps extends HTMLAttributes<HTMLLIElement> {
  /** Buttons at the row's end; false and null ones are left out. */
  actions?: ReactNode[];
  /** Secondary lines under the row's content (times, progress, an error). */
  detail?: ReactNode;
}

export function RowItem({ actions, detail, children, className, ...rest }: RowItemProps) {
  const shown = actions?.filter(Boolean) ?? [];
  return (
    <li className={className ? `row-list-item ${className}` : 'row-list-item'} {...rest}>
      <div className="row-list-main">
        {children}
        {detail && <div className="row-list-detail">{detail}</div>}
      </div>
      {shown.length > 0 && <Space size={4}>{shown}</Space>}
    </li>
  );
}
