/** Tree helpers for tree tables and tree selects. */
export type Nested<T> = T & { children?: Nested<T>[] };

/**
 * Nests flat rows by parent id, keeping their order. A row whose parent is not in the list (a
 * filtered list, or another institution's root) becomes a root. Leaves get no `children`, so
 * tree tables show no expand icon for them.
 */
export function nest<T extends object>(rows: T[], id: (r: T) => string, parent: (r: T) => string | null): Nested<T>[] {
  const nodes = new Map<string, Nested<T>>(rows.map((r) => [id(r), { ...r }]));
  const roots: Nested<T>[] = [];
  for (const r of rows) {
    const node = nodes.get(id(r))!;
    const p = parent(r);
    const up = p ? nodes.get(p) : undefined;
    if (up && up !== node) (up.children ??= []).push(node);
    else roots.push(node);
  }
  return roots;
}

/** Every key of a tree that has children (what "expand all" opens). */
export function parentKeys<T extends { children?: T[] }>(nodes: T[], key: (n: T) => string): string[] {
  return nodes.flatMap((n) => (n.children?.length ? [key(n), ...parentKeys(n.children, key)] : []));
}

/** Every key of a tree. */
export function allKeys<T extends { children?: T[] }>(nodes: T[], key: (n: T) => string): string[] {
  return nodes.flatMap((n) => [key(n), ...allKeys(n.children ?? [], key)]);
}
