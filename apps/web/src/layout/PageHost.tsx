import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageRoute } from '../auth/routes';
import { pick, type Language } from '../i18n';
import { pageRegistry } from '../pages/registry';
import NotBuilt from '../pages/NotBuilt';
import PageLoading from '../components/feedback/PageLoading';
import ErrorBoundary from '../components/feedback/ErrorBoundary';
import { CurrentPageContext } from './current-page';

/** Renders the registered page of a route (or the not-built notice) and sets the tab title. */
export default function PageHost({ page }: { page: PageRoute }) {
  const { t, i18n } = useTranslation();
  const title = pick(page.title, i18n.language as Language);
  useEffect(() => {
    document.title = `${title} - ${t('shell.appTitle')}`;
  }, [title, t]);
  const Page = pageRegistry[page.name];
  return (
    <CurrentPageContext.Provider value={page}>
      <ErrorBoundary>
        <Suspense fallback={<PageLoading />}>{Page ? <Page /> : <NotBuilt />}</Suspense>
      </ErrorBoundary>
    </CurrentPageContext.Provider>
  );
}
