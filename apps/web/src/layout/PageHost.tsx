import { Suspense, useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageRoute } from '../auth/routes';
import { pick, type Language } from '../i18n';
import PageLoading from '../components/feedback/PageLoading';
import ErrorBoundary from '../components/feedback/ErrorBoundary';
import { CurrentPageContext } from './current-page';
import NotBuilt from './NotBuilt';

/** Route name -> page component: pages/registry.ts, handed in by App.tsx so the layout never imports a page. */
export type PageRegistry = Readonly<Record<string, ComponentType>>;

/** Renders the registered page of a route (or the not-built notice) and sets the tab title. */
export default function PageHost({ page, registry }: { page: PageRoute; registry: PageRegistry }) {
  const { t, i18n } = useTranslation();
  const title = pick(page.title, i18n.language as Language);
  useEffect(() => {
    document.title = `${title} - ${t('shell.appTitle')}`;
  }, [title, t]);
  const Page = registry[page.name];
  return (
    <CurrentPageContext.Provider value={page}>
      <ErrorBoundary>
        <Suspense fallback={<PageLoading />}>{Page ? <Page /> : <NotBuilt />}</Suspense>
      </ErrorBoundary>
    </CurrentPageContext.Provider>
  );
}
