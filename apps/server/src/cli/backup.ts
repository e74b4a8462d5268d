/**
 * `npm run backup -- <file>`: one archive of the database DATA_DIR or DATABASE_URL names and of its
 * disk file store, taken while the server runs (ops/backup.ts, README "Running in production").
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { BackupError, KEY_NOTE, placeOf, writeBackup } from '../ops/backup.js';

const file = process.argv[2];
if (!file || file.startsWith('-')) {
  console.error('usage: npm run backup -- <archive.zip>   (DATA_DIR or DATABASE_URL names the database, as for npm run serve)');
  process.exit(2);
}
const config = loadConfig();
const started = performance.now();
try {
  const target = path.resolve(file);
  const manifest = await writeBackup(target, placeOf(config), { now: new Date() }); // wall-clock: the backup's time
  const rows = Object.values(manifest.tables).reduce((sum, t) => sum + t.rows, 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`backup written: ${target} (${(fs.statSync(target).size / 1048576).toFixed(1)} MB in ${seconds} s)`);
  console.log(
    `  database: ${manifest.engine} ${manifest.serverVersion}, migration ${manifest.migration.id}, ${Object.keys(manifest.tables).length} tables, ${rows} rows`,
  );
  console.log(`  files: ${manifest.files.storage === 'disk' ? `${manifest.files.count} from the disk store` : manifest.files.note}`);
  console.log(`  ${KEY_NOTE}`);
} catch (e) {
  if (!(e instanceof BackupError)) throw e;
  console.error(`backup failed: ${e.message}`);
  process.exitCode = 1;
}
