/**
 * A roster import in a process of its own, for the kill -9 test (import-kill.test.ts): opens the
 * database (a PGlite folder or a PostgreSQL url), commits the roster file inside one
 * transaction, and prints `rows <n>` after each batch it has written, pausing so the test can
 * kill it mid-import. Not part of the server.
 *
 *   node --import tsx import-child.ts <pglite-folder | postgres://…> <file.xlsx>
 */
import fs from 'node:fs';
import { loadConfig } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { readyEncryption } from '../../encryption.js';
import { commitRoster } from './import-handlers.js';

const [target, file] = process.argv.slice(2);
const database = await openDatabase(target!.startsWith('postgres') ? { url: target!, migrate: false } : { dataDir: target!, migrate: false });
// DATA_KEY from the test: the rows are sealed as the server seals them.
await readyEncryption(database.db, loadConfig(), false);
const outcome = await commitRoster(database.db, {
  musercode: 'I0003',
  appid: '000000004',
  bytes: fs.readFileSync(file!),
  lang: 'zh-CN',
  now: new Date(Date.UTC(2026, 10, 21)),
  onBatch: async (rows) => {
    process.stdout.write(`rows ${rows}\n`);
    await new Promise((r) => setTimeout(r, 300));
  },
});
process.stdout.write(`done ${outcome.imported}\n`);
await database.close();
