/**
 * The session (SPEC §4): token cookie + user record + permission list in local storage, the
 * routes generated from them, sign-in and sign-out. Read it with useSession() / usePermission().
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { UserRecord } from '@xinli/contract';
import { call, closeReloginDialog, getToken, removeToken } from '../api';
import { isActingTab } from '../api/session-token';
import { leaveActing } from './acting';
import { setTimeZone } from '../lib/format';
import { feedback } from '../api/feedback';
import { queryClient } from '../query-client';
import { t } from '../i18n';
import { generateRoutes, isAdmin, type GeneratedRoutes } from './routes';
import { markSignedOut, storeSignIn } from './sign-in';
import {
  clearLocalStorageExceptRemember,
  LOGOUT_NAME_KEY,
  MARKER_KEY,
  PERMISSIONS_KEY,
  readJson,
  signInName,
  store,
  USER_KEY,
  type StoredUser,
} from './storage';

export interface Session {
  user: StoredUser;
  /** The role list: permission codes, plus 'admin' for the super account. */
  roles: string[];
  routes: GeneratedRoutes;
}

export type Restored = { kind: 'none' } | { kind: 'ok'; session: Session } | { kind: 'expired'; variant: 1 | 2 };

function buildSession(user: StoredUser, roles: string[], marker: string | null): Session {
  setTimeZone(user.timezone);
  return { user, roles, routes: generateRoutes({ roles, musertype: user.musertype, loginasmarker: marker ?? user.loginasmarker }) };
}

/**
 * SPEC §4: no token => signed out; token + stored permission list => routes; a missing list
 * clears the token ('login expired'); any failure while setting up clears it too (variant 2).
 */
export function restoreSession(): Restored {
  if (!getToken()) return { kind: 'none' };
  try {
    const roles = readJson<string[]>(PERMISSIONS_KEY);
    if (roles === null) {
      removeToken();
      return { kind: 'expired', variant: 1 };
    }
    const user = readJson<StoredUser>(USER_KEY);
    if (!user || !Array.isArray(roles) || typeof user.musertype !== 'string') throw new Error('incomplete session');
    return { kind: 'ok', session: buildSession(user, roles, store().getItem(MARKER_KEY)) };
  } catch {
    removeToken();
    return { kind: 'expired', variant: 2 };
  }
}

/** Restores once per page load (StrictMode runs state initialisers twice; the first run clears a bad token). */
let firstRestore: Restored | null = null;
const restoreOnce = () => (firstRestore ??= restoreSession());

/** The name shown in the navbar (SPEC §6): staff users show their own name. */
export const displayName = (user: Pick<StoredUser, 'userid' | 'sysusername' | 'username'>) =>
  user.userid ? user.sysusername : user.username;

interface SessionApi {
  session: Session | null;
  /** Stores a user record answered by as.m.user.login or as.m.user.loginAs. */
  signIn: (record: UserRecord) => Session;
  /** SPEC §4 sign-out; `silent` skips nothing but the server's answer (it may be revoked already). */
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

/** The current roles, for checks outside React. */
let currentRoles: string[] = [];

export { justSignedOut, clearSignedOut } from './sign-in';

export function SessionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const [restored] = useState(restoreOnce);
  const [session, setSession] = useState<Session | null>(restored.kind === 'ok' ? restored.session : null);
  currentRoles = session?.roles ?? [];

  const warned = useRef(false);
  useEffect(() => {
    if (restored.kind !== 'expired' || warned.current) return;
    warned.current = true;
    feedback().message.warning({ content: t(restored.variant === 1 ? 'shell.loginExpired' : 'shell.loginExpired2'), duration: 5 });
  }, [restored]);

  const signIn = useCallback((record: UserRecord) => {
    const user = storeSignIn(record);
    queryClient.clear();
    const next = buildSession(user, user.roles, user.loginasmarker);
    setSession(next);
    return next;
  }, []);

  const signOut = useCallback(async () => {
    // A login-as tab signs out of the institution only: it becomes the provider's tab again.
    if (isActingTab()) return leaveActing();
    const user = readJson<StoredUser>(USER_KEY);
    if (user) sessionStorage.setItem(LOGOUT_NAME_KEY, signInName(user));
    // The next user starts without the last one's tabs.
    sessionStorage.removeItem('tagsView.visited');
    const token = getToken();
    // The session may already be revoked (password change): the answer does not matter.
    if (token) await call('as.m.user.logout', { token }, { silent: true }).catch(() => undefined);
    removeToken();
    closeReloginDialog();
    clearLocalStorageExceptRemember();
    queryClient.clear();
    markSignedOut();
    setSession(null);
    navigate('/login', { replace: true });
  }, [navigate]);

  const api = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const api = useContext(SessionContext);
  if (!api) throw new Error('useSession outside SessionProvider');
  return api;
}

/** Feature checks (SPEC §6): membership of a permission code; 'admin' holds every code. */
export const hasCode = (code: string, roles: string[] = currentRoles) => isAdmin(roles) || roles.includes(code);

export function usePermission() {
  const stored = useContext(SessionContext)?.session?.roles;
  return useMemo(() => {
    const roles = stored ?? [];
    return {
      roles,
      hasCode: (code: string) => hasCode(code, roles),
      hasAny: (...codes: string[]) => codes.some((c) => hasCode(c, roles)),
    };
  }, [stored]);
}
