import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { outerColumn } from '../../kit/index.js';
import { muser } from './tables.js';

/**
 * What other domains may build into their own queries of an institution account, keyed by their
 * row's musercode column: one scalar subquery per column on the account's primary key, in the same
 * statement (a list stays one round trip). Every row of another domain names an existing account
 * (a foreign key), so these never come back empty where the join they replace matched.
 */
function accountColumn<T>(column: AnyPgColumn, musercode: AnyPgColumn): SQL<T> {
  return sql<T>`(select ${column} from ${muser} where ${muser.musercode} = ${outerColumn(musercode)})`;
}

/** The institution's name, as a column of another domain's query. */
export function insnameOf(musercode: AnyPgColumn): SQL<string> {
  return accountColumn<string>(muser.insname, musercode);
}

/** An account's essentials (AccountRow), as columns of another domain's query. */
export function accountColumnsOf(musercode: AnyPgColumn) {
  return {
    musercode: sql<string>`${musercode}`,
    musertype: accountColumn<string>(muser.musertype, musercode),
    issuper: accountColumn<boolean>(muser.issuper, musercode),
    insname: insnameOf(musercode),
  };
}
