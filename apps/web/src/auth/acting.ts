/**
 * Login-as (SPEC §7 as.m.user.loginAs): a provider opens one of its institutions' consoles in a
 * NEW TAB, while its own tab keeps its own session.
 *
 * The cookie and local storage are shared by every tab of the browser, so the login-as tab keeps
 * its whole session (token, user record, permissions, apps) in its own session storage
 * (api/session-token.ts `isActingTab`, auth/storage.ts `store()`). The record travels from the
 * provider's tab to the new tab through a one-time local-storage entry under a random id named in
 * the new tab's URL (`/?actas=<id>`): the new tab takes it out before anything renders
 * (`consumeHandoff`, main.tsx), and the provider's tab removes it anyway after a few seconds,
 * so a blocked pop-up leaves nothing behind. Leaving (the banner's button, or signing out)
 * ends the login-as session on the server and turns the tab back into the provider's console.
 */
import type { UserRecord } from '@xinli/contract';
import { call } from '../api';
import { ACTING_PREFIX, clearActing, isActingTab, setActingToken } from '../api/session-token';
import { MARKER_KEY, PERMISSIONS_KEY, USER_KEY, store, writeJson } from './storage';

const HANDOFF_PREFIX = 'loginAsHandoff.';
const INFO_KEY = `${ACTING_PREFIX}info`;
export const HANDOFF_PARAM = 'actas';
/** How long the record may wait for the new tab to take it. */
const HANDOFF_MS = 15_000;

/** Who acts, for the banner, and where leaving goes. */
export interface ActingInfo {
  /** The provider (or its staff user) acting: its name as its own console shows it. */
  actor: string;
  /** The institution acted as. */
  insname: string;
  /** The provider's page the tab returns to. */
  back: string;
}

interface Handoff {
  record: UserRecord;
  actor: string;
  back: string;
}

const randomId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** A tab opened for login-as while the server is asked; `show` hands it the answer. */
export interface PendingTab {
  show: (record: UserRecord, actor: string, back: string) => void;
  cancel: () => void;
}

/**
 * Opens an empty tab at once, in the click that asked for it (a tab opened after waiting for
 * the server is what pop-up blockers block); answers null when the browser refused it.
 */
export function openActingTab(): PendingTab | null {
  const tab = window.open('', '_blank');
  if (!tab) return null;
  return {
    show: (record, actor, back) => {
      const id = randomId();
      const key = HANDOFF_PREFIX + id;
      localStorage.setItem(key, JSON.stringify({ record, actor, back } satisfies Handoff));
      setTimeout(() => localStorage.removeItem(key), HANDOFF_MS);
      tab.location.replace(`/?${HANDOFF_PARAM}=${id}`);
    },
    cancel: () => tab.close(),
  };
}

/**
 * At start-up of a tab opened by `openActingTab`: moves the handed-off session into this tab's
 * session storage and drops the id from the address. Call before the session is restored.
 */
export function consumeHandoff(location: Location = window.location): void {
  const params = new URLSearchParams(location.search);
  const id = params.get(HANDOFF_PARAM);
  if (!id) return;
  const key = HANDOFF_PREFIX + id;
  const raw = /^[0-9a-f]{32}$/.test(id) ? localStorage.getItem(key) : null;
  localStorage.removeItem(key);
  window.history.replaceState(null, '', '/');
  if (!raw) return;
  const { record, actor, back } = JSON.parse(raw) as Handoff;
  const { token, ...user } = record;
  clearActing();
  setActingToken(token);
  writeJson(USER_KEY, user);
  writeJson(PERMISSIONS_KEY, user.roles);
  store().setItem(MARKER_KEY, user.loginasmarker ?? '');
  sessionStorage.setItem(INFO_KEY, JSON.stringify({ actor, insname: user.insname, back } satisfies ActingInfo));
  // The new tab starts with its own tabs view, not a copy of the provider's.
  sessionStorage.removeItem('tagsView.visited');
}

/** The banner's facts in a login-as tab; null elsewhere. */
export function actingInfo(): ActingInfo | null {
  if (!isActingTab()) return null;
  try {
    return JSON.parse(sessionStorage.getItem(INFO_KEY) ?? 'null') as ActingInfo | null;
  } catch {
    return null;
  }
}

/** Ends the login-as session and shows the provider's own console again, in this tab. */
export async function leaveActing(): Promise<void> {
  const back = actingInfo()?.back ?? '/';
  await call('as.m.user.logout', {}, { silent: true }).catch(() => undefined);
  clearActing();
  sessionStorage.removeItem('tagsView.visited');
  // A full load: the tab restores the provider's session from the cookie and local storage.
  window.location.replace(back.startsWith('/') && !back.startsWith('//') ? back : '/');
}
