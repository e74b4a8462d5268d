/**
 * `npm run restore -- <file> [--force]`: restores an archive of `npm run backup` into the database
 * DATA_DIR or DATABASE_URL names and its disk file store. The archive's checksums and the data key
 * are checked first; a non-empty target is refused without --force; the migrations run afterwards.
 */
import path from 'node:path';
import { loadConfig } from '../config.js';
import { BackupError, placeOf, restoreBackup } from '../ops/backup.js';

const args = process.argv.slice(2);
const force = args.includes('--force');
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error(
    'usage: npm run restore -- <archive.zip> [--force]   (into the database DATA_DIR or DATABASE_URL names; --force replaces a non-empty one)',
  );
  process.exit(2);
}
const config = loadConfig();
const started = performance.now();
try {
  const { manifest, files, migrated } = await restoreBackup(path.resolve(file), placeOf(config), config, { force });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `restored ${file} (made ${manifest.createdAt} by version ${manifest.appVersion}, migration ${manifest.migration.id}) in ${seconds} s`,
  );
  console.log(`  ${Object.keys(manifest.tables).length} tables: every row count and checksum matches the backup; ${files} files`);
  console.log(migrated ? `  ${migrated} migrations applied since the backup's version` : '  schema up to date');
} catch (e) {
  if (!(e instanceof BackupError)) throw e;
  console.error(`restore refused: ${e.message}`);
  process.exitCode = 1;
}
