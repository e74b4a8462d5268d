import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';

/**
 * An uploaded file (SPEC §7 Upload, fileUpload 00030). The bytes live in the file storage (disk or
 * S3) under `key`, a generated name; `filename` is what the uploader called it, shown only.
 * `contenttype` is what its content was found to be, and what it is served as. A signed upload
 * is `pending` until its content has been checked.
 */
export const storedFile = pgTable(
  'stored_file',
  {
    fileid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    use: text().notNull(),
    filename: text().notNull(),
    key: text().notNull(),
    contenttype: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    status: text().notNull(),
    createdby: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('stored_file_key_idx').on(t.key),
    index('stored_file_muser_idx').on(t.musercode, t.createdat),
    check('stored_file_use_check', sql`${t.use} in ('image', 'audio', 'video', 'pdf', 'excel')`),
    check('stored_file_status_check', sql`${t.status} in ('pending', 'ready')`),
    check('stored_file_size_check', sql`${t.size} > 0`),
  ],
);

/**
 * Which content uses a file (an article's cover or body image, a goods cover, a track's audio …).
 * Content domains keep their rows through setFileUses (files.ts); the foreign key without cascade
 * is what refuses deleting a file in use, even against a parallel edit.
 */
export const fileUse = pgTable(
  'file_use',
  {
    fileid: text()
      .notNull()
      .references(() => storedFile.fileid, { onDelete: 'restrict' }),
    /** What kind of content: article, goods, track, course, lesson. */
    kind: text().notNull(),
    ownerid: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileid, t.kind, t.ownerid] }), index('file_use_owner_idx').on(t.kind, t.ownerid)],
);

/** Settings of the file store shared by every process (the secret signing this server's upload targets). */
export const fileSetting = pgTable('file_setting', {
  name: text().primaryKey(),
  value: text().notNull(),
});
