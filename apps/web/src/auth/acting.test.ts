import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@xinli/contract';
import { getToken, isActingTab, setToken } from '../api/session-token';
import { actingInfo, consumeHandoff, openActingTab } from './acting';
import { PERMISSIONS_KEY, USER_KEY, readJson, store, type StoredUser } from './storage';

const record = (musercode: string, token: string): UserRecord =>
  ({ token, musercode, insname: `机构${musercode}`, roles: ['00018'], loginasmarker: '', userid: null, username: musercode }) as unknown as UserRecord;

/** The provider's own session, as sign-in leaves it in the cookie and local storage. */
function providerSignedIn() {
  setToken('provider-token');
  localStorage.setItem(USER_KEY, JSON.stringify({ musercode: 'P0001', insname: '服务商' }));
  localStorage.setItem(PERMISSIONS_KEY, JSON.stringify(['00021']));
}

/** Runs openActingTab with a fake new tab; answers the address the tab was sent to. */
function handOff(r: UserRecord): string {
  let sentTo = '';
  const tab = { location: { replace: (url: string) => (sentTo = url) }, close: vi.fn() };
  vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
  openActingTab()!.show(r, '服务商 · 王经理', '/Service/terminal?page=2');
  return sentTo;
}

describe('login-as tabs (auth/acting.ts)', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    document.cookie = 'token=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => vi.restoreAllMocks());

  it('a handed-off tab runs on its own session and leaves the provider’s untouched', () => {
    providerSignedIn();
    const url = handOff(record('I0002', 'acting-token'));
    expect(url).toMatch(/^\/\?actas=[0-9a-f]{32}$/);

    // The new tab starts (same local storage, its own session storage).
    window.history.replaceState(null, '', url);
    consumeHandoff();
    expect(window.location.search).toBe('');
    expect(isActingTab()).toBe(true);
    expect(getToken()).toBe('acting-token');
    expect(readJson<StoredUser>(USER_KEY)?.musercode).toBe('I0002');
    expect(actingInfo()).toEqual({ actor: '服务商 · 王经理', insname: '机构I0002', back: '/Service/terminal?page=2' });
    // The one-time entry is gone; the provider's keys are as they were.
    expect(Object.keys(localStorage).filter((k) => k.startsWith('loginAsHandoff.'))).toEqual([]);
    expect(JSON.parse(localStorage.getItem(USER_KEY)!).musercode).toBe('P0001');
    expect(document.cookie).toContain('token=provider-token');
    // Writes in the login-as tab go to its own storage.
    store().setItem('appSelected', 'true');
    expect(localStorage.getItem('appSelected')).toBeNull();
  });

  it('an id that was not handed off (or was taken already) gives no session', () => {
    providerSignedIn();
    const url = handOff(record('I0002', 'acting-token'));
    window.history.replaceState(null, '', url);
    consumeHandoff();
    sessionStorage.clear();
    // The same address opened again (a reload of the first URL, a copied link) finds nothing.
    window.history.replaceState(null, '', url);
    consumeHandoff();
    expect(isActingTab()).toBe(false);
    expect(getToken()).toBe('provider-token');
    window.history.replaceState(null, '', '/?actas=not-an-id');
    consumeHandoff();
    expect(isActingTab()).toBe(false);
  });

  it('a refused pop-up leaves nothing behind', () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    expect(openActingTab()).toBeNull();
    expect(Object.keys(localStorage)).toEqual([]);
  });
});
