/**
 * Writes docs/api.md from the action catalogue: `npm run docs:api`.
 * A test checks that the committed file matches, so the catalogue and its document never drift.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderApiDoc } from '../src/api-doc.js';

const out = path.resolve(import.meta.dirname, '../../../docs/api.md');
fs.writeFileSync(out, renderApiDoc());
console.log(`wrote ${path.relative(process.cwd(), out)}`);
