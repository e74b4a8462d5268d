/**
 * One action's answer as a query, like refine's useOne or react-admin's useGetOne: the kit's
 * one data hook for everything a page reads that is not a list page.
 *
 *   const detail = useAction('as.m.warning.getCase', { caseid }, { enabled: !!caseid });
 *
 * The key is `[name, input, language]`: writes invalidate by `[name]` (FormDialog's
 * `invalidates`, the list's `confirm`), and answers follow the console language (menu titles,
 * app names), so a switch fetches again, as the list hook does. A call the caller may not make is
 * not sent (the server would only refuse it with "no permission"), and the call is cancelled
 * when the page that asked for it is left.
 */
import { useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { ActionInput, ActionName, ActionOutput } from '@xinli/contract';
import { call } from '../../api';
import { useLang } from '../../lib/options';
import { useAccess } from '../access';

/** React Query's options (staleTime, refetchInterval, placeholderData, select…), and the call's own. */
export type ActionQueryOptions<N extends ActionName, T = ActionOutput<N>> = Omit<
  UseQueryOptions<ActionOutput<N>, Error, T>,
  'queryKey' | 'queryFn' | 'enabled'
> & {
  enabled?: boolean;
  /** No error message when the call fails (background reads: the bell, progress polling). */
  silent?: boolean;
};

/**
 * The key and call of one action, the same the hook uses: for the few reads the hook cannot
 * make, a `fetchQuery` that must find the hook's cache (the bell's check for new notices) and
 * `useQueries` over a list only known at run time (one call per stage).
 */
export function actionQuery<N extends ActionName>(name: N, input: ActionInput<N>, lang: string, silent?: boolean) {
  return {
    queryKey: [name, input, lang] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => call(name, input, { signal, silent }),
  };
}

export function useAction<N extends ActionName, T = ActionOutput<N>>(
  name: N,
  input: ActionInput<N>,
  { enabled = true, silent, ...options }: ActionQueryOptions<N, T> = {},
) {
  const { can } = useAccess();
  const lang = useLang();
  return useQuery<ActionOutput<N>, Error, T>({
    ...options,
    ...actionQuery(name, input, lang, silent),
    enabled: enabled && can(name),
  });
}
