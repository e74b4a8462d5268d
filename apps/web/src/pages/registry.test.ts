import { describe, expect, it } from 'vitest';
import { createElement, Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { menuTable, type MenuNode } from '@xinli/contract';
import { page, pageRegistry } from './registry';

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

  it('gives a lazily loaded component the props of its route', async () => {
    const List = ({ appid = 'all' }: { appid?: string }) => createElement('p', null, `appid ${appid}`);
    const load = async () => ({ default: List });
    render(createElement(Suspense, { fallback: null }, createElement(page(load, { appid: '000000001' })), createElement(page(load))));
    expect(await screen.findByText('appid 000000001')).toBeTruthy();
    expect(await screen.findByText('appid all')).toBeTruthy();
  });
});
