/**
 * Person roster import (issue 11): a ZLB (older adults) roster of BENCH_ROWS rows (default
 * 50,000) with the template's 10 columns, previewed and then committed in one transaction by the
 * persons domain's own import code, on embedded PGlite (or DATABASE_URL). Prints the file size,
 * the time of each phase, rows per second and the peak RSS of the importing process (a child of
 * its own, so building the file does not count). Asserts nothing. `npx tsx bench/import.ts`
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/database.js';
import { syncReferenceData } from '../apps/server/src/seed/reference.js';
import { seedDemo } from '../apps/server/src/seed/demo.js';
import { buildRosterTemplate } from '../apps/server/src/domains/persons/roster.js';
import { commitRoster, runRosterImport } from '../apps/server/src/domains/persons/import-handlers.js';
import { olderAdultRows, rosterFile, templateHeader } from '../apps/server/src/domains/persons/test-roster.js';
import { cuser } from '../apps/server/src/domains/persons/tables.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
const mib = (b: number) => (b / 2 ** 20).toFixed(1);
const peak = () => process.resourceUsage().maxRSS / 1024;

const [, , flag, file] = process.argv;
if (flag !== '--run') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-import-bench-'));
  const roster = path.join(dir, 'roster.xlsx');
  const form = (await import('../apps/server/src/domains/scales/library/archive-forms.js')).olderArchive;
  const { parseDefinition } = await import('../apps/server/src/domains/scales/scoring/validate.js');
  const header = await templateHeader(await buildRosterTemplate(parseDefinition(form), { zh: '中老年人', en: 'Older adults' }));
  const bytes = await rosterFile(header, olderAdultRows(ROWS));
  fs.writeFileSync(roster, bytes);
  console.log(`roster: ${ROWS.toLocaleString('en')} rows × ${header.length} columns, ${mib(bytes.length)} MiB .xlsx (${mib(Math.ceil(bytes.length / 3) * 4)} MiB as base64 in the request body)`);
  process.stdout.write(execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--run', roster], { encoding: 'utf8', env: process.env }));
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

const database = await openDatabase(process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : {});
await syncReferenceData(database.db);
await seedDemo(database.db, 'demo123', new Date());
const bytes = fs.readFileSync(file!);
const rssBefore = process.memoryUsage().rss / 2 ** 20;
console.log(`database: ${database.kind}; RSS before the import ${Math.round(rssBefore)} MiB`);
const opts = { musercode: 'I0003', appid: '000000004', bytes, lang: 'zh-CN' as const, now: new Date() };
let t = performance.now();
const preview = await runRosterImport(database.db, { ...opts, store: false });
const previewMs = performance.now() - t;
console.log(`preview: ${preview.total.toLocaleString('en')} rows checked, ${preview.problemcount} problems in ${(previewMs / 1000).toFixed(1)} s (${Math.round(preview.total / (previewMs / 1000)).toLocaleString('en')} rows/s)`);

t = performance.now();
const done = await commitRoster(database.db, opts);
const commitMs = performance.now() - t;
const [stored] = await database.db.select({ n: count() }).from(cuser).where(eq(cuser.source, 'import'));
console.log(`commit: ${done.imported.toLocaleString('en')} rows stored in one transaction in ${(commitMs / 1000).toFixed(1)} s (${Math.round(done.imported / (commitMs / 1000)).toLocaleString('en')} rows/s); persons from imports now ${Number(stored!.n).toLocaleString('en')}`);
console.log(`peak RSS of the importing process: ${Math.round(peak())} MiB`);
await database.close();
