import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Keys a database keeps about its own encryption (kit/crypt): `blind-index`, the blind-index key
 * sealed under the data key (re-sealed by a rotation, never changed), so every server process and
 * every later data key computes the same hashes.
 */
export const dataKeyTable = pgTable('data_key', {
  name: text().primaryKey(),
  value: text().notNull(),
  updatedat: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
