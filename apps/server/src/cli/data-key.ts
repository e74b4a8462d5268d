/**
 * The data key of field encryption (README "Data key"):
 *   npm run data-key:generate            prints a new key (base64 of 32 random bytes)
 *   npm run data-key:rotate              re-encrypts every sealed value under DATA_KEY, in batches,
 *                                        while the server runs; the old key in DATA_KEY_PREVIOUS
 * The keys come from the environment as for the server (DATA_KEY or DATA_KEY_FILE, DATA_KEY_PREVIOUS,
 * DATABASE_URL or DATA_DIR); nothing is ever printed of a key but the new one `generate` makes.
 */
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { installKeys, rotateDataKey } from '../encryption.js';
import { currentKey, newDataKeyText } from '../kit/crypt/index.js';

const command = process.argv[2];
if (command === 'generate') {
  console.log(newDataKeyText());
  process.exit(0);
}
if (command !== 'rotate') {
  console.error('usage: npm run data-key:generate | npm run data-key:rotate');
  process.exit(2);
}

const config = loadConfig();
if (!config.dataKeys.current || !config.dataKeys.previous.length) {
  console.error('data-key:rotate needs the new key in DATA_KEY (or DATA_KEY_FILE) and the old one(s) in DATA_KEY_PREVIOUS (comma-separated)');
  process.exit(2);
}
installKeys(config);
// The server runs (and migrated) already: the command never migrates.
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir, migrate: false });
try {
  let total = 0;
  const { resealed, left } = await rotateDataKey(database.db, new Date(), {
    onBatch: (field, rows) => {
      total += rows;
      console.log(`${field}: ${rows} re-encrypted (${total} in all)`);
    },
  });
  for (const [field, n] of Object.entries(resealed)) console.log(`${field.padEnd(28)} ${n}`);
  console.log(left === 0 ? `done: every value is sealed under key ${currentKey().id}; DATA_KEY_PREVIOUS may now be removed (restart the server after)` : `${left} values are still under an older key (written during the run?): run the command again`);
  process.exitCode = left === 0 ? 0 : 1;
} finally {
  await database.close();
}
