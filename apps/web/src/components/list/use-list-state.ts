import { useCallback, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from './ListPagination';

export interface ListState<F> {
  page: number;
  pageSize: number;
  filters: F;
}

/**
 * Page, page size and filters of a list page. `input` is what to send to the list action:
 * `{ ...filters, page, pageSize }`.
 */
export function useListState<F extends Record<string, unknown>>(initialFilters: F = {} as F, pageSize = DEFAULT_PAGE_SIZE) {
  const [state, setState] = useState<ListState<F>>({ page: 1, pageSize, filters: initialFilters });
  const search = useCallback((filters: F) => setState((s) => ({ ...s, page: 1, filters })), []);
  const reset = useCallback(() => setState((s) => ({ ...s, page: 1, filters: initialFilters })), [initialFilters]);
  const paginate = useCallback(
    (page: number, size: number) => setState((s) => ({ ...s, page: size === s.pageSize ? page : 1, pageSize: size })),
    [],
  );
  return { ...state, input: { ...state.filters, page: state.page, pageSize: state.pageSize }, search, reset, paginate };
}
