/**
 * Shared pieces for list pages in the RuoYi shape (search form, toolbar, table, pagination).
 *
 *   const list = useListState<{ rolename?: string }>();
 *   const [searchOpen, setSearchOpen] = useState(true);
 *   const q = useListQuery('as.m.system.role.selectRoleList', list.input);
 *   return (
 *     <ListPage
 *       search={<SearchForm visible={searchOpen} onSearch={list.search} onReset={list.reset}>
 *                 <Form.Item name="rolename" label={t('authority.rolename')}><Input allowClear /></Form.Item>
 *               </SearchForm>}
 *       toolbar={<ListToolbar actions={<Button type="primary">{t('…add')}</Button>}
 *                  searchVisible={searchOpen} onToggleSearch={() => setSearchOpen(!searchOpen)} onRefresh={() => q.refetch()} />}
 *       pagination={<ListPagination total={q.data?.total ?? 0} page={list.page} pageSize={list.pageSize} onChange={list.paginate} />}
 *     >
 *       <DataTable rowKey="roleid" columns={columns} rows={q.data?.rows} loading={q.isFetching} error={q.error} onRetry={() => q.refetch()} />
 *     </ListPage>
 *   );
 *
 * After a write: `queryClient.invalidateQueries({ queryKey: ['as.m.system.role.selectRoleList'] })`.
 */
import './list.css';

export { default as ListPage } from './ListPage';
export { default as SearchForm, dropEmpty } from './SearchForm';
export { default as ListToolbar } from './ListToolbar';
export { default as DataTable } from './DataTable';
export { default as ListPagination, DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, PAGINATION_DEFAULT_LIMIT } from './ListPagination';
export { LoadingState, EmptyState, ErrorState } from './states';
export { useListState, type ListState } from './use-list-state';
export { useListQuery } from '../../api/use-list-query';
