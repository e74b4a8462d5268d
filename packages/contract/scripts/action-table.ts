/**
 * Writes packages/contract/src/action-table.ts (the catalogue's access table without zod) from
 * the catalogue: `npm run gen:actions`, after adding or changing an action. A contract test
 * checks that the committed file matches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderActionTable } from '../src/action-table-render.js';

const out = path.resolve(import.meta.dirname, '../src/action-table.ts');
fs.writeFileSync(out, renderActionTable());
console.log(`wrote ${path.relative(process.cwd(), out)}`);
