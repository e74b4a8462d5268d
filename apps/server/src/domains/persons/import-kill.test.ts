/**
 * All or nothing under a crash: a roster import killed with SIGKILL part-way through, after it has
 * written rows inside its transaction, leaves no person behind, on PGlite (a data folder, opened
 * again after the kill) and on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.js';
import { testConfig } from '../../config.js';
import { readyEncryption } from '../../encryption.js';
import { seedDemo } from '../../seed/demo.js';
import { syncReferenceData } from '../../seed/reference.js';
import { DEMO_PASSWORD, TEST_EPOCH, engines, freshDatabase } from '../../test/harness.js';
import { buildRosterTemplate } from './roster.js';
import { olderAdultRows, rosterFile, templateHeader } from './test-roster.js';
import { archiveFormOf } from '../scales/index.js';
import { cuser } from './tables.js';

const child = path.resolve(import.meta.dirname, 'import-child.ts');

const imported = async (database: Database) =>
  Number((await database.db.select({ n: count() }).from(cuser).where(and(eq(cuser.musercode, 'I0003'), eq(cuser.source, 'import'))))[0]!.n);

/** Runs the child until it has written `killAfter` rows, then SIGKILLs it; answers what it printed. */
function runAndKill(target: string, file: string, killAfter: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // The child seals with this process's data key (the database's index key is sealed under it).
    const env = { ...process.env, DATA_KEY: testConfig().dataKeys.current };
    const p = spawn(process.execPath, ['--import', 'tsx', child, target, file], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    p.stdout.on('data', (b) => {
      out += b;
      const m = /rows (\d+)\n$/.exec(out);
      if (m && Number(m[1]) >= killAfter) p.kill('SIGKILL');
    });
    p.stderr.on('data', (b) => (out += b));
    p.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(out) : reject(new Error(`the import ended on its own (${code}): ${out}`))));
  });
}

describe.each(engines('both'))('roster import killed mid-way on %s', (engine) => {
  it('leaves nothing half-imported', { timeout: 180_000 }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-kill-'));
    try {
      let database: Database;
      let target: string;
      if (engine === 'pglite') {
        target = path.join(dir, 'pgdata');
        database = await openDatabase({ dataDir: target, template: new Blob([fs.readFileSync(inject('pgliteTemplate'))]), migrate: false });
      } else {
        database = await freshDatabase('postgres');
        target = (database as unknown as { url: string }).url;
      }
      await syncReferenceData(database.db);
      await readyEncryption(database.db, testConfig(), false);
      await seedDemo(database.db, DEMO_PASSWORD, new Date(TEST_EPOCH), { reports: false });
      const before = await imported(database);
      const form = await archiveFormOf(database.db, 'I0003', '000000004');
      const header = await templateHeader(await buildRosterTemplate(form!.definition, { zh: '中老年人', en: 'Older adults' }));
      const file = path.join(dir, 'roster.xlsx');
      fs.writeFileSync(file, await rosterFile(header, olderAdultRows(6000)));
      if (engine === 'pglite') await database.close(); // one process at a time on a PGlite folder

      const out = await runAndKill(target, file, 3000);
      expect(out).toMatch(/rows [3-5][0-9]{3}\n$/); // rows written inside the transaction when killed
      expect(out).not.toMatch(/done/);

      if (engine === 'pglite') database = await openDatabase({ dataDir: target, migrate: false });
      expect(await imported(database)).toBe(before);
      await database.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
