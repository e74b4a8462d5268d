/**
 * The console kit for list pages (RuoYi shape: search form, toolbar, table, pagination), headless
 * like refine's useTable: `useListPage(action, { resource, filters })` answers the props of each
 * piece. See apps/web/README.md "Building a list page" for a worked example.
 */
import './list.css';

export { default as ListPage } from './ListPage';
export { default as ListView, type ListViewProps } from './ListView';
export { default as SearchForm, dropEmpty } from './SearchForm';
export { default as ListToolbar } from './ListToolbar';
export { default as DataTable } from './DataTable';
export { default as ListPagination, DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, PAGINATION_DEFAULT_LIMIT } from './ListPagination';
export { LoadingState, EmptyState, ErrorState, Loaded, RetryLine, Waiting } from './states';
export { useListPage, type ListPageOptions, type ListPageApi, type Rows } from './use-list-page';
export { f, FilterFields, DateRange, dateShortcuts, decodeFilters, encodeFilters, type FilterDef, type Filters } from './filters';
export { columnKit, maskPhone, StatusTag, type RowAction, type ColumnKit } from './columns';
export { useTreeExpansion, ExpandAllButton } from './tree';
export { useConfirmCall, type ConfirmCallOptions } from './confirm';
export { useEditDialog } from './edit-dialog';
export { TreeFilter, WithTreeFilter, useSetListParam, useTreeParam, type TreeFilterProps } from './TreeFilter';
export { default as DetailTable } from './DetailTable';
export { RowList, RowItem } from './RowList';
