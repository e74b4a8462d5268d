import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ActionInput, ActionName, ActionOutput } from '@xinli/contract';
import { call } from './client';

export type ListParams<N extends ActionName> = ActionInput<N>;

/**
 * A list query over `call` (RuoYi list shape `{ total, rows }`): the query key is the action
 * name plus its input, so changing page, page size or a filter fetches again while the
 * previous page stays on screen. Invalidate with `queryClient.invalidateQueries({ queryKey: [name] })`.
 */
export function useListQuery<N extends ActionName>(name: N, input: ActionInput<N>, options: { enabled?: boolean } = {}) {
  return useQuery<ActionOutput<N>>({
    queryKey: [name, input],
    queryFn: ({ signal }) => call(name, input, { signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}
