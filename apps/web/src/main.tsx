/**
 * The console's entry. It holds only what the sign-in page needs (React, i18n with the shell's
 * words, the request client, the plain-HTML sign-in page): a visitor without a token sees the
 * sign-in page before the console's code arrives. The console itself (antd, the router, the
 * session, the layout, the action catalogue's schemas with the pages that use them) is App.tsx,
 * loaded when there is a token, when sign-in succeeds, and for /404. `npm run bench:web` prints
 * the sign-in page's JavaScript.
 */
import './lib/zod-config'; // first: before any chunk holding zod is evaluated
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import type { UserRecord } from '@xinli/contract';
import './i18n';
import './styles/global.css';
import { getToken } from './api/session-token';
import { t } from './i18n';
import { storeSignIn } from './auth/sign-in';
import Login from './pages/login/Login';
import { consumeHandoff } from './auth/acting';

// A login-as tab takes its session before anything reads one (auth/acting.ts).
consumeHandoff();

const root = createRoot(document.getElementById('root')!);
const render = (node: ReactNode) => root.render(<StrictMode>{node}</StrictMode>);

let consoleModule: Promise<typeof import('./App')> | undefined;
/** Starts fetching the console once (the sign-in form asks as soon as it is used). */
const loadConsole = () => (consoleModule ??= import('./App'));

async function startConsole() {
  try {
    const { default: App } = await loadConsole();
    render(<App />);
  } catch {
    // The console's code did not arrive (network, or a new release replaced its files): say so.
    render(
      <p role="alert" className="page-loading">
        {t('shell.networkError')}
      </p>,
    );
  }
}

/** The session is stored as the console stores it; the console then reads it back and follows ?redirect= (App.tsx). */
function signedIn(record: UserRecord) {
  storeSignIn(record);
  void startConsole();
}

// SPEC §2: /login and /404 are public; without a token every other path goes to /login?redirect=<path>.
if (getToken() || location.pathname === '/404') void startConsole();
else {
  if (location.pathname !== '/login')
    history.replaceState(null, '', `/login?redirect=${encodeURIComponent(location.pathname + location.search)}`);
  render(<Login onSignedIn={signedIn} onUse={() => void loadConsole()} />);
}
