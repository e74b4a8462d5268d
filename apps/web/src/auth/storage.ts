/**
 * What the console keeps in the browser, by key. Sign-out clears all of local storage except
 * REMEMBER_KEY (SPEC §4); UI preferences (sidebar, language, settings) are cookies and survive.
 *
 * Local storage:
 *   userInfo          the logged-in user record (SPEC §3) without the token
 *   permissions       the permission code list (JSON array); missing => session expired
 *   loginAsMarker     'FW01' | 'JYJ' | '' (catch-all landing, SPEC §2)
 *   remember          the remembered username (only the username, never the password)
 *   appSelected       'true' | 'false': the app-selection flag (SPEC §4)
 *   currentApp        the chosen app {appid, appname, scenecode, iconurl}
 *   appList           every population app (as.m.app.getAppList with appid '')
 *   appList_000000001 .. appList_000000004
 *                     the account's apps of each population group (SPEC §7), one key per appid
 *   tagsView.affixed  paths of tabs the user pinned
 * A login-as tab keeps every local-storage key above but `remember` in its own session
 * storage instead, prefixed `actingAs.` (with its token: api/session-token.ts, auth/acting.ts):
 * read and write them through `store()`.
 * Session storage:
 *   username          the account name saved at sign-out (pre-fills the sign-in form)
 *   tagsView.visited  the visited tabs of this browser tab (cleared at sign-out)
 *   appSwitched       set just before the reload of an app switch
 */
import type { AppEntry, UserRecord } from '@xinli/contract';
import { ACTING_PREFIX, clearActing, isActingTab } from '../api/session-token';

export const USER_KEY = 'userInfo';
export const PERMISSIONS_KEY = 'permissions';
export const MARKER_KEY = 'loginAsMarker';
export const REMEMBER_KEY = 'remember';
export const APP_SELECTED_KEY = 'appSelected';
export const CURRENT_APP_KEY = 'currentApp';
export const APP_LIST_KEY = 'appList';
export const GROUP_APP_IDS = ['000000001', '000000002', '000000003', '000000004'] as const;
export const groupAppListKey = (appid: string) => `appList_${appid}`;
export const LOGOUT_NAME_KEY = 'username';

export type StoredUser = Omit<UserRecord, 'token'>;

/** The name the user signs in with: a staff user's own (sysusername), else the institution's account. */
export const signInName = (user: Pick<StoredUser, 'userid' | 'sysusername' | 'username'>) => (user.userid ? user.sysusername : user.username) || user.username;

/** Where this tab's session keys live: local storage, or a login-as tab's own session storage. */
export interface KeyStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
const actingStore: KeyStore = {
  getItem: (key) => sessionStorage.getItem(ACTING_PREFIX + key),
  setItem: (key, value) => sessionStorage.setItem(ACTING_PREFIX + key, value),
  removeItem: (key) => sessionStorage.removeItem(ACTING_PREFIX + key),
};
export const store = (): KeyStore => (isActingTab() ? actingStore : localStorage);

export function readJson<T>(key: string): T | null {
  const raw = store().getItem(key);
  return raw === null ? null : (JSON.parse(raw) as T);
}

export const writeJson = (key: string, value: unknown) => store().setItem(key, JSON.stringify(value));

/** Sign-out: everything but the remembered username goes (a login-as tab drops only its own session). */
export function clearLocalStorageExceptRemember() {
  if (isActingTab()) return clearActing();
  const keep = localStorage.getItem(REMEMBER_KEY);
  localStorage.clear();
  if (keep !== null) localStorage.setItem(REMEMBER_KEY, keep);
}

export function storeApps(all: AppEntry[] | null, mine: AppEntry[]) {
  if (all) writeJson(APP_LIST_KEY, all);
  for (const appid of GROUP_APP_IDS) writeJson(groupAppListKey(appid), mine.filter((a) => a.appid === appid));
}

export const currentApp = (): AppEntry | null => {
  try {
    return readJson<AppEntry>(CURRENT_APP_KEY);
  } catch {
    return null;
  }
};
