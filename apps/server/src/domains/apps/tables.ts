import { pgTable, text, integer, primaryKey } from 'drizzle-orm/pg-core';
import { muser } from '../accounts/tables.js';

/** The population apps (SPEC §1), kept in step with the contract at every start. */
export const app = pgTable('app', {
  appid: text().primaryKey(),
  appname: text().notNull(),
  appnameen: text().notNull().default(''),
  scenecode: text().notNull().default(''),
  iconurl: text().notNull().default(''),
  sort: integer().notNull().default(0),
});

/** Which apps an account may use. */
export const muserApp = pgTable(
  'muser_app',
  {
    musercode: text()
      .notNull()
      .references(() => muser.musercode, { onDelete: 'cascade' }),
    appid: text()
      .notNull()
      .references(() => app.appid),
  },
  (t) => [primaryKey({ columns: [t.musercode, t.appid] })],
);
