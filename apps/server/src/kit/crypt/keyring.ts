/**
 * The process's keyring from the configuration, and the database's blind-index key (kit/crypt).
 */
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { currentKey, dataFolderKey, deriveIndexKey, open, parseDataKey, reseal, seal, useDataKeys, useIndexKey, type DataKey } from './crypt.js';
import { dataKeyTable } from './tables.js';

const INDEX_KEY = 'blind-index';

/** Where the data keys come from (config.ts reads DATA_KEY, DATA_KEY_FILE and DATA_KEY_PREVIOUS). */
export interface DataKeyConfig {
  /** base64 of 32 bytes; absent: the data folder's key (embedded database) or a refusal (production). */
  current?: string;
  /** Keys still accepted for reading while a rotation runs. */
  previous: string[];
}

/**
 * Installs the keyring. Without a configured key: the embedded database (PGlite, the demo) uses a key
 * made in its data folder; PostgreSQL in production refuses to start; PostgreSQL in development uses
 * the data folder's key too, and says so.
 */
export function installDataKeys(keys: DataKeyConfig, where: { dataDir: string; embedded: boolean; production: boolean }): DataKey {
  let text = keys.current;
  if (!text) {
    if (!where.embedded && where.production)
      throw new Error('No data key: set DATA_KEY (base64 of 32 random bytes) or DATA_KEY_FILE; see README "Data key". The server does not start without one.');
    if (!where.embedded) console.warn(`DATA_KEY is not set: using the development key in ${where.dataDir}/data.key (production refuses to start without DATA_KEY)`);
    text = dataFolderKey(where.dataDir);
  }
  const current = parseDataKey(text);
  useDataKeys(
    current,
    keys.previous.map((k, i) => parseDataKey(k, `DATA_KEY_PREVIOUS[${i}]`)),
  );
  return current;
}

/**
 * Loads the database's blind-index key into the keyring; on the first start it is derived from the
 * current data key and stored sealed (every process after reads the same one, whatever key is current).
 */
export async function loadIndexKey(db: DbOrTx): Promise<void> {
  const read = async () => (await db.select({ value: dataKeyTable.value }).from(dataKeyTable).where(eq(dataKeyTable.name, INDEX_KEY)))[0]?.value;
  let value = await read();
  if (!value) {
    await db
      .insert(dataKeyTable)
      .values({ name: INDEX_KEY, value: seal(deriveIndexKey(currentKey()).toString('base64')) })
      .onConflictDoNothing();
    value = (await read())!;
  }
  useIndexKey(Buffer.from(open(value), 'base64'));
}

/** Re-seals the stored index key under the current data key (the first step of a rotation). */
export async function resealIndexKey(db: DbOrTx, now: Date): Promise<void> {
  const [row] = await db.select({ value: dataKeyTable.value }).from(dataKeyTable).where(eq(dataKeyTable.name, INDEX_KEY));
  if (row) await db.update(dataKeyTable).set({ value: reseal(row.value)!, updatedat: now }).where(eq(dataKeyTable.name, INDEX_KEY));
}
