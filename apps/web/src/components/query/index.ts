/** The console kit's data hook: one action's answer as a query (lists have `useListPage`). */
export { actionQuery, useAction, type ActionQueryOptions } from './use-action';
