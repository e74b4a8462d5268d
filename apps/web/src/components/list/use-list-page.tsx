/**
 * The list-page hook: give it the list action and the filters (as data); it answers the props
 * of the search form, toolbar, table and pagination, and owns search visibility, refresh,
 * invalidation after writes, and the URL (filters, page and page size live in the query
 * string, so a reload or a shared link shows the same list).
 *
 *   const list = useListPage('as.m.system.role.selectRoleList', { resource: 'authority.role', filters: [f.text('rolename'), f.enabled()] });
 *   <ListPage search={<SearchForm {...list.searchProps} />} toolbar={<ListToolbar {...list.toolbarProps} actions={…} />}
 *             pagination={<ListPagination {...list.paginationProps} />}>
 *     <DataTable rowKey="roleid" columns={[list.col.text('rolename'), …]} {...list.tableProps} />
 *   </ListPage>
 *
 * Lists whose action has no page fields (trees) get the whole answer in `data` and no pagination.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Form } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { actionTable, type ActionInput, type ActionName, type ActionOutput } from '@xinli/contract';
import { labelOf, type Resource } from '../../lib/labels';
import { useAccess } from '../access';
import { actionQuery } from '../query';
import { useConfirmCall, type ConfirmCallOptions } from './confirm';
import { columnKit } from './columns';
import { decodeFilters, encodeFilters, FilterFields, fromFormValues, toFormValues, type FilterDef, type Filters } from './filters';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, PAGINATION_DEFAULT_LIMIT } from './ListPagination';

export interface ListPageOptions<N extends ActionName> {
  /** The i18n resource of the page's labels (`authority.role`). */
  resource?: Resource;
  filters?: FilterDef[];
  /** Input merged into every call (a tree selection, a view switch). */
  input?: Partial<ActionInput<N>>;
  enabled?: boolean;
  /** Other lists a write here changes (refreshed with this one). */
  invalidates?: ActionName[];
  /** Page size before the user picks one (SPEC §9: the pagination control's default limit, 20). */
  pageSize?: number;
  /**
   * Poll while the answer says background work is under way (a job queued or running): the
   * interval in ms, or false to stop. Polls refresh quietly (no table spinner).
   */
  refetchInterval?: (data: ActionOutput<N> | undefined) => number | false;
}

type RowOf<O> = O extends { rows: (infer R)[] } ? R : O extends (infer R)[] ? R : never;
/** The row type of a list action: `rows` of a page, or the items of an array. */
export type Rows<N extends ActionName> = RowOf<ActionOutput<N>> extends object ? RowOf<ActionOutput<N>> : never;

const SIZES = new Set([DEFAULT_PAGE_SIZE, PAGINATION_DEFAULT_LIMIT, ...PAGE_SIZE_OPTIONS]);

export function useListPage<N extends ActionName>(action: N, options: ListPageOptions<N> = {}) {
  const {
    resource,
    filters: defs = [],
    input: extra,
    enabled = true,
    invalidates = [],
    pageSize: initialSize = PAGINATION_DEFAULT_LIMIT,
    refetchInterval,
  } = options;
  const { i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [searchVisible, setSearchVisible] = useState(true);
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const { can } = useAccess();
  const paged = !!actionTable[action].paged;

  // The URL is the state: filters, page and page size are read from it on every render.
  const filters = useMemo(() => decodeFilters(defs, params), [defs, params]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sizeParam = Number(params.get('pageSize'));
  const pageSize = SIZES.has(sizeParam) ? sizeParam : initialSize;

  const write = useCallback(
    (next: Filters, nextPage: number, nextSize: number) =>
      setParams(
        (prev) => {
          const p = encodeFilters(defs, next, prev);
          if (nextPage > 1) p.set('page', String(nextPage));
          else p.delete('page');
          if (nextSize !== initialSize) p.set('pageSize', String(nextSize));
          else p.delete('pageSize');
          return p;
        },
        { replace: true },
      ),
    [defs, initialSize, setParams],
  );

  // The search form shows what the URL says (after a reload, or back/forward).
  const filterKey = JSON.stringify(filters);
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(toFormValues(defs, filters));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterKey, form]);

  const input = useMemo(
    () => ({ ...filters, ...(paged ? { page, pageSize } : {}), ...extra }) as ActionInput<N>,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [filterKey, paged, page, pageSize, JSON.stringify(extra ?? {})],
  );
  const query = useQuery<ActionOutput<N>>({
    // Answers follow the console language (menu titles, app names): a switch fetches again.
    ...actionQuery(action, input, i18n.language),
    placeholderData: keepPreviousData,
    enabled: enabled && can(action),
    refetchInterval: refetchInterval ? (q) => refetchInterval(q.state.data) : undefined,
  });
  const data = query.data;
  const polling = !!refetchInterval && refetchInterval(data) !== false;
  const rows = (paged ? (data as { rows?: Rows<N>[] } | undefined)?.rows : (data as Rows<N>[] | undefined)) ?? undefined;
  const total = paged ? ((data as { total?: number } | undefined)?.total ?? 0) : (rows?.length ?? 0);

  const keys = useMemo(() => [action, ...invalidates], [action, invalidates]);
  const invalidate = useCallback(
    () => Promise.all(keys.map((key) => queryClient.invalidateQueries({ queryKey: [key] }))).then(() => undefined),
    [keys, queryClient],
  );
  const refetch = useCallback(() => void query.refetch(), [query]);

  const search = useCallback((next: Filters) => write(next, 1, pageSize), [write, pageSize]);
  const reset = useCallback(() => write({}, 1, pageSize), [write, pageSize]);
  const paginate = useCallback((p: number, size: number) => write(filters, size === pageSize ? p : 1, size), [write, filters, pageSize]);

  const confirmCall = useConfirmCall();
  const confirm = useCallback(
    <A extends ActionName>(o: ConfirmCallOptions<A>) => confirmCall({ ...o, invalidates: [...keys, ...(o.invalidates ?? [])] }),
    [confirmCall, keys],
  );
  const col = useMemo(() => columnKit<Rows<N>>({ resource, can, confirm }), [resource, can, confirm]);

  return {
    /** The list's query key: pass to dialogs' `invalidates`. */
    key: action,
    query,
    data,
    rows,
    total,
    filters,
    page,
    pageSize,
    input,
    search,
    reset,
    paginate,
    /** Refetch now (toolbar refresh). */
    refresh: refetch,
    /** Mark this list (and `invalidates`) stale and refetch: after a write. */
    invalidate,
    /** confirm → call → message → invalidate, with this list's keys. */
    confirm,
    col,
    /** Column helpers over another row type (rows the page reshapes, e.g. into a tree). */
    colFor: <R extends object>() => columnKit<R>({ resource, can, confirm }),
    label: (field: string) => labelOf(resource, field),
    searchProps: {
      visible: searchVisible,
      form,
      onSearch: (values: Record<string, unknown>) => search(fromFormValues(defs, values)),
      onReset: reset,
      children: <FilterFields defs={defs} resource={resource} />,
    },
    toolbarProps: { searchVisible, onToggleSearch: defs.length ? () => setSearchVisible((v) => !v) : undefined, onRefresh: refetch },
    tableProps: { rows, loading: query.isFetching && !polling, error: query.error, onRetry: refetch },
    paginationProps: { total, page, pageSize, onChange: paginate },
    paged,
  };
}

export type ListPageApi<N extends ActionName> = ReturnType<typeof useListPage<N>>;
