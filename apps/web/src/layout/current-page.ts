import { createContext, useContext } from 'react';
import type { PageRoute } from '../auth/routes';

/** The route of the page being shown; pages read it with useCurrentPage(). */
export const CurrentPageContext = createContext<PageRoute | null>(null);

export function useCurrentPage(): PageRoute {
  const page = useContext(CurrentPageContext);
  if (!page) throw new Error('useCurrentPage outside a console page');
  return page;
}
