/**
 * The console: everything after sign-in (main.tsx loads this module when there is a token, when
 * sign-in succeeds, and for /404). zod's JIT is switched off before anything builds a schema.
 */
import './i18n/console';
// antd's component styles as one stylesheet (theme.ts: zeroRuntime). First among the console's
// styles, so every stylesheet of ours that loads after it still overrides antd as before.
import 'antd/dist/antd.css';
import { lazy, Suspense, useEffect } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter, Navigate, Outlet, Route, Routes, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { setFeedback } from './api';
import { justSignedOut, SessionProvider, useSession } from './auth/session';
import { antdLocale } from './i18n/antd-locale';
import type { Language } from './i18n';
import { queryClient } from './query-client';
import { theme } from './theme';
import PageLoading from './components/feedback/PageLoading';
import DownloadOverlay from './components/feedback/DownloadOverlay';
import PageHost from './layout/PageHost';
import { pageRegistry } from './pages/registry';
import { useAccess } from './components/access';
import { isWallDisplay } from './pages/echarts/wall';

import Login from './pages/login/Login';

// Route-level code splitting: each page is its own chunk, the layout one more.
const NotFound = lazy(() => import('./pages/error/NotFound'));
const MainLayout = lazy(() => import('./layout/MainLayout'));

export default function App() {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider locale={antdLocale(i18n.language as Language)} theme={theme}>
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <SessionProvider>
              <Suspense fallback={<PageLoading />}>
                <AppRoutes />
              </Suspense>
            </SessionProvider>
          </BrowserRouter>
        </QueryClientProvider>
        <DownloadOverlay />
      </AntApp>
    </ConfigProvider>
  );
}

/** Where a signed-in user on /login goes: back to the page asked for (same site only), else home. */
export function afterSignIn(search: string): string {
  const target = new URLSearchParams(search).get('redirect');
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login') ? target : '/';
}

/** The sign-in page inside the console (after sign-out, or a session that could not be restored). */
function SignIn() {
  const { signIn } = useSession();
  return <Login onSignedIn={signIn} />;
}

/** Hands antd's themed, localised message and modal to the request client. */
function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  useEffect(() => setFeedback({ message, modal }), [message, modal]);
  return null;
}

/** The main layout around every page, except the big screen (a wall display fills the screen alone). */
function Shell() {
  const location = useLocation();
  const { can } = useAccess();
  return isWallDisplay(location.pathname, location.search, can) ? <Outlet /> : <MainLayout />;
}

/**
 * SPEC §2: /login and /404 are public; without a token everything else goes to
 * /login?redirect=<path>; with one, the generated routes live inside the main layout, menus
 * redirect to their first page, pages the user may not open answer 404 and anything else
 * goes to the landing page.
 */
function AppRoutes() {
  const { session } = useSession();
  const location = useLocation();
  const routes = session?.routes;
  return (
    <Routes>
      <Route path="/login" element={session ? <Navigate to={afterSignIn(location.search)} replace /> : <SignIn />} />
      <Route path="/404" element={<NotFound />} />
      {routes ? (
        <Route element={<Shell />}>
          <Route index element={<Navigate to={routes.landing} replace />} />
          {routes.menus
            .filter((m) => m.redirect !== m.path)
            .map((m) => (
              <Route key={m.path} path={m.path} element={<Navigate to={m.redirect} replace />} />
            ))}
          {routes.pages.map((p) => (
            <Route key={p.path} path={p.path} element={<PageHost page={p} registry={pageRegistry} />} />
          ))}
          {routes.denied.map((p) => (
            <Route key={p} path={p} element={<Navigate to="/404" replace />} />
          ))}
          <Route path="*" element={<Navigate to={routes.landing} replace />} />
        </Route>
      ) : (
        <Route path="*" element={<Navigate to={justSignedOut() ? '/login' : `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />} />
      )}
    </Routes>
  );
}
