/**
 * The tags view (SPEC §2): visited pages as tabs; refresh, close, close others, close all;
 * affixed tabs cannot be closed and persist (local storage `tagsView.affixed`). The landing
 * page is affixed until the user unpins it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { GeneratedRoutes, PageRoute } from '../auth/routes';
import { queryClient } from '../query-client';

export const AFFIXED_KEY = 'tagsView.affixed';
/** Visited tabs live in session storage: they survive a reload or a remount of the layout. */
export const VISITED_KEY = 'tagsView.visited';

function readVisited(): string[] {
  try {
    const list = JSON.parse(sessionStorage.getItem(VISITED_KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

export interface TagItem {
  path: string;
  page: PageRoute;
  affix: boolean;
}

function readAffixed(routes: GeneratedRoutes): string[] {
  try {
    const raw = localStorage.getItem(AFFIXED_KEY);
    const list = raw === null ? [routes.landing] : (JSON.parse(raw) as string[]);
    return list.filter((p) => routes.pages.some((page) => page.path === p));
  } catch {
    return [routes.landing];
  }
}

export function useTagsView(routes: GeneratedRoutes, current: PageRoute | undefined) {
  const navigate = useNavigate();
  const [affixed, setAffixed] = useState(() => readAffixed(routes));
  const [visited, setVisitedState] = useState<string[]>(readVisited);
  const setVisited = useCallback((next: string[] | ((v: string[]) => string[])) => {
    setVisitedState((v) => {
      const value = typeof next === 'function' ? next(v) : next;
      sessionStorage.setItem(VISITED_KEY, JSON.stringify(value));
      return value;
    });
  }, []);
  const [refreshKey, setRefreshKey] = useState(0);

  // Add a page when the user arrives on it (not on every render: a tab just closed while the
  // navigation away from it is under way must not come back).
  const arrived = useRef<string | null>(null);
  // Storage is the record: it is written here, at once, so a visit survives even if the layout
  // remounts before React applies the state update.
  useEffect(() => {
    if (!current || arrived.current === current.path) return;
    arrived.current = current.path;
    const stored = readVisited();
    if (!stored.includes(current.path)) setVisited([...stored, current.path]);
    else setVisitedState(stored);
  }, [current, setVisited]);

  const saveAffixed = (next: string[]) => {
    setAffixed(next);
    localStorage.setItem(AFFIXED_KEY, JSON.stringify(next));
  };

  const tags: TagItem[] = useMemo(() => {
    const byPath = new Map(routes.pages.map((p) => [p.path, p]));
    const order = [...affixed, ...visited.filter((p) => !affixed.includes(p))];
    return order.filter((p) => byPath.has(p)).map((p) => ({ path: p, page: byPath.get(p)!, affix: affixed.includes(p) }));
  }, [routes, affixed, visited]);

  const goToLast = useCallback(
    (remaining: string[]) => navigate(remaining.length ? remaining[remaining.length - 1] : routes.landing),
    [navigate, routes.landing],
  );

  const close = (path: string) => {
    if (affixed.includes(path)) return;
    const rest = visited.filter((p) => p !== path);
    setVisited(rest);
    if (current?.path === path) goToLast([...affixed, ...rest.filter((p) => !affixed.includes(p))]);
  };

  const closeOthers = (path: string) => {
    setVisited(visited.filter((p) => p === path || affixed.includes(p)));
    if (current?.path !== path) navigate(path);
  };

  const closeAll = () => {
    setVisited(visited.filter((p) => affixed.includes(p)));
    if (!current || !affixed.includes(current.path)) goToLast(affixed);
  };

  const refresh = (path: string) => {
    if (current?.path !== path) navigate(path);
    // Remount the page and refetch what it shows.
    setRefreshKey((k) => k + 1);
    void queryClient.invalidateQueries();
  };

  const toggleAffix = (path: string) => saveAffixed(affixed.includes(path) ? affixed.filter((p) => p !== path) : [...affixed, path]);

  return { tags, refreshKey, close, closeOthers, closeAll, refresh, toggleAffix };
}

export type TagsViewApi = ReturnType<typeof useTagsView>;
