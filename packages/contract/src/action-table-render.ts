import type { z } from 'zod';
import { catalogue } from './catalogue.js';
import type { ActionDef } from './catalogue-kit.js';

/** Whether a list action's input takes page fields (paged lists answer `{ total, rows }`). */
const isPaged = (def: ActionDef) => 'page' in ((def.input as z.ZodObject).shape ?? {});
const accessSource = (a: ActionDef['access']) =>
  typeof a === 'string' ? `'${a}'` : `{ codes: [${a.codes.map((c) => `'${c}'`).join(', ')}] }`;

/** The source of action-table.ts: one line per action of the catalogue, in catalogue order. */
export function renderActionTable(): string {
  const rows = (Object.entries(catalogue) as [string, ActionDef][]).map(
    ([name, def]) => `  '${name}': { access: ${accessSource(def.access)}${isPaged(def) ? ', paged: true' : ''} },`,
  );
  return [
    '/**',
    ' * GENERATED from the catalogue by `npm run gen:actions`; do not edit (a contract test keeps it in step).',
    ' * Who may call each action, and whether a list action is paged, WITHOUT the zod schemas: the',
    " * console's access checks (menus, buttons, list queries) read this table, so no page loads the",
    " * whole catalogue; a page takes the schemas it uses from its own domain's action file.",
    ' */',
    "import type { ActionName } from './catalogue.js';",
    "import type { Access } from './catalogue-kit.js';",
    '',
    'export interface ActionTraits {',
    '  access: Access;',
    '  /** The input takes page and pageSize. */',
    '  paged?: true;',
    '}',
    '',
    'export const actionTable: Record<ActionName, ActionTraits> = {',
    ...rows,
    '};',
    '',
  ].join('\n');
}
