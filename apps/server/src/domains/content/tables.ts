import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';
import { storedFile } from '../files/tables.js';

/**
 * An article (dashboards 00028). `content` is HTML as the sanitiser left it (content/sanitize.ts);
 * the files it shows and its cover are recorded as uses in the files domain (file_use), so they
 * cannot be deleted while the article uses them.
 */
export const article = pgTable(
  'article',
  {
    articleid: text().primaryKey(),
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    title: text().notNull(),
    summary: text().notNull().default(''),
    coverfileid: text().references(() => storedFile.fileid),
    content: text().notNull().default(''),
    published: integer().notNull().default(0),
    publishedat: timestamp({ withTimezone: true }),
    createdby: text().notNull(),
    createdat: timestamp({ withTimezone: true }).notNull(),
    updatedat: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('article_muser_idx').on(t.musercode, t.createdat),
    check('article_published_check', sql`${t.published} in (0, 1) and (${t.published} = 0 or ${t.publishedat} is not null)`),
  ],
);
