/**
 * Route generation (SPEC §2, §6) as a pure function of the menu table and the signed-in user.
 * The router and the menus are both built from its answer.
 */
import { childPath, loginAsLanding, menuTable, type MenuNode } from '@xinli/contract';

export interface RouteUser {
  /** The role list: permission codes, plus 'admin' for the super account. */
  roles: string[];
  musertype: string;
  loginasmarker?: string | null;
}

export interface Label {
  zh: string;
  en: string;
}

/** A page the user may open. */
export interface PageRoute {
  /** Full path, e.g. /authority/roleAdministration. */
  path: string;
  /** Route name, the key of pages/registry.ts. */
  name: string;
  title: Label;
  code?: string;
  hidden: boolean;
  /** The menu entry to highlight (detail pages). */
  activeMenu?: string;
  /** The top menu the page sits under (absent for top-level pages). */
  parent?: { path: string; name: string; title: Label };
}

/** A top-level menu with its visible pages. */
export interface MenuRoute {
  path: string;
  name: string;
  title: Label;
  code?: string;
  hidden: boolean;
  alwaysShow: boolean;
  /** Pages under this menu; empty for a top-level page such as /echarts/web. */
  children: PageRoute[];
  /** Where the menu path itself leads: its first visible child, or itself. */
  redirect: string;
}

export interface GeneratedRoutes {
  menus: MenuRoute[];
  pages: PageRoute[];
  /** Where "/" and unknown paths go (SPEC §2 catch-all). */
  landing: string;
  /** Paths of the table the user may not open: they answer the 404 page. */
  denied: string[];
}

export const isAdmin = (roles: string[]) => roles.includes('admin');

/** SPEC §6: a route shows if it has no code or the user holds it; 'admin' sees everything. */
export const mayOpen = (node: { code?: string }, roles: string[]) => !node.code || isAdmin(roles) || roles.includes(node.code);

/** SPEC §6: type 004 sees statisticsN, everyone else statistics1. */
export const removedByType = (musertype: string) => (musertype === '004' ? 'statistics1' : 'statisticsN');

const label = (n: MenuNode): Label => ({ zh: n.zh, en: n.en });

function pagesOf(menu: MenuNode): PageRoute[] {
  if (!menu.children) return [{ path: menu.path, name: menu.name, title: label(menu), code: menu.code, hidden: !!menu.hidden, activeMenu: menu.activeMenu }];
  const parent = { path: menu.path, name: menu.name, title: label(menu) };
  // Component codes (menus.ts `component`) are permissions, not pages.
  return menu.children.filter((c) => !c.component).map((c) => ({
    path: childPath(menu, c),
    name: c.name,
    title: label(c),
    code: c.code,
    hidden: !!c.hidden,
    activeMenu: c.activeMenu,
    parent,
  }));
}

export function generateRoutes(user: RouteUser, table: MenuNode[] = menuTable): GeneratedRoutes {
  const removed = removedByType(user.musertype);
  const menus: MenuRoute[] = [];
  const allPaths: string[] = [];
  for (const node of table) {
    const pages = pagesOf(node);
    allPaths.push(...pages.map((p) => p.path));
    if (node.children) allPaths.push(node.path);
    if (node.name === removed || !mayOpen(node, user.roles)) continue;
    const children = node.children ? pages.filter((p) => mayOpen(p, user.roles)) : [];
    // A menu whose every page is forbidden would be an empty heading: leave it out.
    if (node.children && children.length === 0) continue;
    const firstVisible = children.find((c) => !c.hidden) ?? children[0];
    menus.push({
      path: node.path,
      name: node.name,
      title: label(node),
      code: node.code,
      hidden: !!node.hidden,
      alwaysShow: !!node.alwaysShow,
      children,
      redirect: node.children ? firstVisible.path : node.path,
    });
  }
  const pages = menus.flatMap((m) => (m.children.length ? m.children : pagesOf(table.find((n) => n.path === m.path)!)));
  const open = new Set(pages.map((p) => p.path));
  const reachable = new Set([...open, ...menus.map((m) => m.path)]);
  return { menus, pages, landing: landingOf(user, menus, open), denied: [...new Set(allPaths)].filter((p) => !reachable.has(p)) };
}

/**
 * SPEC §2: marker FW01 lands on crisis warnings, JYJ on statistics, everyone else on the first
 * page of the first menu. A marker's landing is used only when the user may open it.
 */
function landingOf(user: RouteUser, menus: MenuRoute[], open: Set<string>): string {
  const marked = user.loginasmarker ? loginAsLanding[user.loginasmarker] : undefined;
  if (marked && open.has(marked)) return marked;
  const first = menus.find((m) => !m.hidden);
  return first ? first.redirect : '/404';
}

/** The page whose full path is `path`, if the user may open it. */
export const findPage = (routes: GeneratedRoutes, path: string) => routes.pages.find((p) => p.path === path);
