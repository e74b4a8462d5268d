import { asc } from 'drizzle-orm';
import type { Lang, MenuTreeNode } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import type { HandlerMap } from '../../http/handlers.js';
import { holds } from '../auth/index.js';
import { menu } from './tables.js';

type MenuRow = typeof menu.$inferSelect;

export const allMenus = (db: DbOrTx) => db.select().from(menu).orderBy(asc(menu.sort));

/**
 * Builds the menu tree of the kept codes. A kept code whose parent is not kept hangs from its
 * nearest kept ancestor (or the root), so a child code never disappears with its parent.
 */
export function menuTree(rows: MenuRow[], lang: Lang, keep: (code: string) => boolean): MenuTreeNode[] {
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const nodes = new Map<string, MenuTreeNode>();
  for (const r of rows) {
    if (!keep(r.code)) continue;
    nodes.set(r.code, {
      code: r.code,
      parentcode: r.parentcode,
      path: r.path,
      name: r.name,
      title: lang === 'en-US' ? r.titleen : r.titlezh,
      titlezh: r.titlezh,
      titleen: r.titleen,
      hidden: r.hidden,
      sort: r.sort,
      children: [],
    });
  }
  const roots: MenuTreeNode[] = [];
  for (const node of nodes.values()) {
    let parent = node.parentcode;
    while (parent && !nodes.has(parent)) parent = byCode.get(parent)?.parentcode ?? null;
    (parent ? nodes.get(parent)!.children : roots).push(node);
  }
  return roots;
}

/** A title filter keeps the matching codes and their ancestors, so matches show where they sit. */
function withAncestors(rows: MenuRow[], matches: Set<string>): Set<string> {
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const out = new Set<string>();
  for (const code of matches) {
    let at: string | null | undefined = code;
    while (at && !out.has(at)) {
      out.add(at);
      at = byCode.get(at)?.parentcode;
    }
  }
  return out;
}

export const menuHandlers = {
  'as.m.system.menu.selectMenuList': async ({ title }, ctx) => {
    const rows = await allMenus(ctx.db);
    const held = (code: string) => holds(ctx.me, code);
    if (!title) return menuTree(rows, ctx.lang, held);
    const needle = title.toLowerCase();
    const matches = new Set(rows.filter((r) => held(r.code) && (r.titlezh.toLowerCase().includes(needle) || r.titleen.toLowerCase().includes(needle))).map((r) => r.code));
    const shown = withAncestors(rows, matches);
    return menuTree(rows, ctx.lang, (code) => held(code) && shown.has(code));
  },
} satisfies HandlerMap;
