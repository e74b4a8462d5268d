import { describe, expect, it } from 'vitest';
import { menuTable, type MenuNode } from '@xinli/contract';
import { pageRegistry } from './registry';

/** Every screen of the menu table (not the menu groups, not component codes) has its page. */
function screens(nodes: MenuNode[]): string[] {
  return nodes.flatMap((n) => (n.children?.length ? screens(n.children) : n.component ? [] : [n.name]));
}

describe('the page registry', () => {
  it('has a page for every route of the menu table, and none for a route that does not exist', () => {
    const routes = screens(menuTable);
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((name) => !pageRegistry[name])).toEqual([]);
    expect(Object.keys(pageRegistry).filter((name) => !routes.includes(name))).toEqual([]);
  });
});
