import { sql } from 'drizzle-orm';
import { menuTable, type MenuNode } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { menu } from './tables.js';

/** Flattens the contract's menu table into rows; a code used twice keeps its first place. */
export function menuRows(): (typeof menu.$inferInsert)[] {
  const rows = new Map<string, typeof menu.$inferInsert>();
  let sort = 0;
  const walk = (nodes: MenuNode[], parent: MenuNode | null) => {
    for (const n of nodes) {
      if (n.code && !rows.has(n.code)) {
        rows.set(n.code, {
          code: n.code,
          parentcode: parent?.code ?? null,
          path: n.path,
          name: n.name,
          titlezh: n.zh,
          titleen: n.en,
          hidden: !!n.hidden,
          sort: sort++,
        });
      }
      if (n.children) walk(n.children, n);
    }
  };
  walk(menuTable, null);
  return [...rows.values()];
}

/** The menu table follows the contract at every start. */
export async function syncMenus(db: DbOrTx) {
  for (const row of menuRows()) {
    await db
      .insert(menu)
      .values(row)
      .onConflictDoUpdate({
        target: menu.code,
        set: { parentcode: sql`excluded.parentcode`, path: sql`excluded.path`, name: sql`excluded.name`, titlezh: sql`excluded.titlezh`, titleen: sql`excluded.titleen`, hidden: sql`excluded.hidden`, sort: sql`excluded.sort` },
      });
  }
}
