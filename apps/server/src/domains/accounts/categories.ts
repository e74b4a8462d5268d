import type { CategoryNode } from '@xinli/contract';
import { invalid } from '../../http/errors.js';

/** The six levels of an account's category path (SPEC §3 categorycode0..5). */
export const CATEGORY_LEVELS = [0, 1, 2, 3, 4, 5] as const;
export type CategoryPath = Record<`categorycode${(typeof CATEGORY_LEVELS)[number]}`, string>;

const levelsOf = (p: CategoryPath): string[] => CATEGORY_LEVELS.map((i) => p[`categorycode${i}`]);

/**
 * Checks that a path skips no level (a label below an empty level is refused) and derives what
 * the user record carries with it: categorylevel (the number of levels set) and categorycode
 * (the deepest label, '' for none).
 */
export function checkCategoryPath(p: CategoryPath): CategoryPath & { categorylevel: number; categorycode: string } {
  const levels = levelsOf(p);
  const depth = levels.findIndex((l) => l === '');
  const categorylevel = depth === -1 ? levels.length : depth;
  const skipped = levels.findIndex((l, i) => i > categorylevel && l !== '');
  if (skipped !== -1) {
    invalid({
      zh: `分类第 ${skipped + 1} 级已填写，但第 ${categorylevel + 1} 级为空：分类不能跳级`,
      en: `Category level ${skipped + 1} is set while level ${categorylevel + 1} is empty: a category path cannot skip a level`,
    });
  }
  // Only the path's own fields: a caller passes its whole input, and nothing else of it may come back.
  const path = Object.fromEntries(CATEGORY_LEVELS.map((i) => [`categorycode${i}`, levels[i]!])) as CategoryPath;
  return { ...path, categorylevel, categorycode: categorylevel ? levels[categorylevel - 1]! : '' };
}

/** Merges category paths into a tree: one node per distinct prefix, counting the paths through it. */
export function categoryTree(paths: CategoryPath[]): CategoryNode[] {
  const root: CategoryNode[] = [];
  for (const p of paths) {
    let level = root;
    levelsOf(p)
      .filter((l) => l !== '')
      .forEach((code, depth) => {
        let node = level.find((n) => n.code === code);
        if (!node) level.push((node = { code, level: depth, count: 0, children: [] }));
        node.count += 1;
        level = node.children;
      });
  }
  const sort = (nodes: CategoryNode[]): CategoryNode[] =>
    nodes.sort((a, b) => a.code.localeCompare(b.code, 'zh-CN')).map((n) => ({ ...n, children: sort(n.children) }));
  return sort(root);
}
