import { QueryClient } from '@tanstack/react-query';

/**
 * One query client for the console. Errors are already shown by the request client, so no
 * retries (a second identical message helps nobody) and no refetch on focus (staff switch
 * windows all day; lists refresh when they ask for it).
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: false },
  },
});
