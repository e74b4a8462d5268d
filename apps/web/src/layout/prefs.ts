/**
 * UI preferences, kept in cookies so that sign-out (which clears local storage) keeps them:
 *   sidebarStatus  '1' open, '0' collapsed (SPEC §4)
 *   settings       JSON of LayoutSettings (the settings panel)
 */
import { useCallback, useState } from 'react';
import Cookies from 'js-cookie';

export const SIDEBAR_COOKIE = 'sidebarStatus';
export const SETTINGS_COOKIE = 'settings';

export interface LayoutSettings {
  tagsView: boolean;
  topMenu: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

/** SPEC §2: fixed header on, sidebar logo off, tags view off. */
export const defaultSettings: LayoutSettings = { tagsView: false, topMenu: true, fixedHeader: true, sidebarLogo: false };

const cookieOptions = { expires: 365, sameSite: 'Lax' as const };

export function readSettings(): LayoutSettings {
  try {
    return { ...defaultSettings, ...(JSON.parse(Cookies.get(SETTINGS_COOKIE) ?? '{}') as Partial<LayoutSettings>) };
  } catch {
    return defaultSettings;
  }
}

export function useSettings() {
  const [settings, setState] = useState(readSettings);
  const update = useCallback((patch: Partial<LayoutSettings>) => {
    setState((s) => {
      const next = { ...s, ...patch };
      Cookies.set(SETTINGS_COOKIE, JSON.stringify(next), cookieOptions);
      return next;
    });
  }, []);
  return [settings, update] as const;
}

/** Sidebar open (true) or collapsed; open unless the cookie says '0'. */
export function useSidebarOpen() {
  const [open, setOpen] = useState(() => Cookies.get(SIDEBAR_COOKIE) !== '0');
  const toggle = useCallback(() => {
    setOpen((o) => {
      Cookies.set(SIDEBAR_COOKIE, o ? '0' : '1', cookieOptions);
      return !o;
    });
  }, []);
  return [open, toggle] as const;
}
