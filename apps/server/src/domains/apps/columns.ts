import { eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Lang } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';
import { outerColumn } from '../../kit/index.js';
import { app } from './tables.js';

/**
 * What other domains may build into their own queries of a population app, keyed by their row's
 * appid column: a scalar subquery on the app's primary key, in the same statement. Every such row
 * names an existing app (a foreign key), so these never come back empty where a join matched.
 */
function appColumn<T>(column: AnyPgColumn, appid: AnyPgColumn): SQL<T> {
  return sql<T>`(select ${column} from ${app} where ${app.appid} = ${outerColumn(appid)})`;
}

/** The app's name in the caller's language, as a column of another domain's query. */
export function appNameOf(appid: AnyPgColumn, lang: Lang): SQL<string> {
  return appColumn<string>(lang === 'en-US' ? app.appnameen : app.appname, appid);
}

/** The app's place in the app order, to sort another domain's rows by their app. */
export function appSortOf(appid: AnyPgColumn): SQL<number> {
  return appColumn<number>(app.sort, appid);
}

/** Whether an app has this id. */
export async function appExists(db: DbOrTx, appid: string): Promise<boolean> {
  const [row] = await db.select({ appid: app.appid }).from(app).where(eq(app.appid, appid));
  return row !== undefined;
}
