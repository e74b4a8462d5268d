/**
 * Field encryption at start-up (issue 30 §3, README "Data key"): the keyring from the configuration,
 * the database's blind-index key, and the step that seals whatever is still plain text, so a fresh
 * install and a database upgraded from before the field_encryption migration both end fully encrypted.
 */
import type { Config } from './config.js';
import type { DbOrTx } from './db/database.js';
import { countUnsealed, installDataKeys, loadIndexKey, resealAll, resealIndexKey, sealPending, type SealedField, type SweepOptions } from './kit/crypt/index.js';
import { sealedFields as domainSealedFields } from './domains/index.js';

/** Every sealed column of every domain. */
export const sealedFields: SealedField[] = domainSealedFields;

/** Installs the configured data keys (refusing to go on without one in production). */
export function installKeys(config: Config) {
  return installDataKeys(config.dataKeys, {
    dataDir: config.dataDir,
    embedded: !config.databaseUrl,
    production: process.env.NODE_ENV === 'production',
  });
}

/**
 * Keys installed and the index key loaded; with `sealRows` (the process that migrates), every plain
 * value sealed in batches before the server answers. Answers how many values were sealed.
 */
export async function readyEncryption(db: DbOrTx, config: Config, sealRows: boolean): Promise<number> {
  installKeys(config);
  await loadIndexKey(db);
  if (!sealRows) return 0;
  const done = await sealPending(db, sealedFields);
  return Object.values(done).reduce((a, b) => a + b, 0);
}

/**
 * A rotation (`npm run data-key:rotate`), with the new key current and the old one in
 * DATA_KEY_PREVIOUS: the stored index key re-sealed first, then every value an older key sealed,
 * in batches, while the server runs. Answers the values re-sealed per column and how many are
 * left under an older key (0: DATA_KEY_PREVIOUS can be removed).
 */
export async function rotateDataKey(db: DbOrTx, now: Date, opts: SweepOptions = {}): Promise<{ resealed: Record<string, number>; left: number }> {
  await loadIndexKey(db);
  await resealIndexKey(db, now);
  // Anything still plain (written by an older server during the upgrade) is sealed as well.
  await sealPending(db, sealedFields);
  const resealed = await resealAll(db, sealedFields, opts);
  return { resealed, left: await countUnsealed(db, sealedFields) };
}
