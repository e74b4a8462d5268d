import type { ReactNode } from 'react';
import { Button } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ActionName } from '@xinli/contract';
import { Can } from '../access';
import DataTable, { type DataTableProps } from './DataTable';
import ListPage from './ListPage';
import ListPagination from './ListPagination';
import ListToolbar from './ListToolbar';
import SearchForm from './SearchForm';
import type { SearchFormProps } from './SearchForm';
import type { ListToolbarProps } from './ListToolbar';
import type { ListPaginationProps } from './ListPagination';

/** What ListView takes from useListPage (any list action). */
export interface ListSource {
  searchProps: SearchFormProps<any>;
  toolbarProps: ListToolbarProps;
  tableProps: { rows?: readonly object[]; loading?: boolean; error?: unknown; onRetry?: () => void };
  paginationProps: ListPaginationProps;
  paged: boolean;
}

export interface ListViewProps<R extends object> extends Omit<DataTableProps<R>, 'rows'> {
  list: ListSource;
  /** The primary "add" button, shown when the caller may call its action. */
  add?: { action: ActionName; onClick: () => void; label?: ReactNode; testId?: string };
  /** More toolbar buttons after "add". */
  actions?: ReactNode;
  /** Search items before the declared filters (a picker the page owns). */
  searchBefore?: ReactNode;
  /** Above the toolbar (a notice). */
  banner?: ReactNode;
  /** Rows the page reshaped (a tree); default the list's rows. */
  rows?: R[];
  /** Under the table instead of the pagination (a count). */
  below?: ReactNode;
  /** Dialogs and drawers of the page. */
  children?: ReactNode;
}

/** A whole list page from `useListPage`: search form, toolbar with its add button, table, pagination. */
export default function ListView<R extends object>({
  list,
  add,
  actions,
  searchBefore,
  banner,
  rows,
  below,
  children,
  ...table
}: ListViewProps<R>) {
  const { t } = useTranslation();
  const { children: filters, ...search } = list.searchProps;
  return (
    <ListPage
      search={
        <SearchForm {...search}>
          {searchBefore}
          {filters}
        </SearchForm>
      }
      toolbar={
        <>
          {banner}
          <ListToolbar
            {...list.toolbarProps}
            actions={
              <>
                {add && (
                  <Can action={add.action}>
                    <Button type="primary" icon={<PlusOutlined />} onClick={add.onClick} data-testid={add.testId}>
                      {add.label ?? t('common.add')}
                    </Button>
                  </Can>
                )}
                {actions}
              </>
            }
          />
        </>
      }
      pagination={below ?? (list.paged ? <ListPagination {...list.paginationProps} /> : undefined)}
    >
      <DataTable<R>
        {...(list.tableProps as Omit<DataTableProps<R>, 'columns'>)}
        {...table}
        rows={rows ?? (list.tableProps.rows as R[] | undefined)}
      />
      {children}
    </ListPage>
  );
}
