import { eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database.js';
import type { Ctx } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import { assertInScope, scopeWhere } from '../auth/index.js';
import { accountRow, type AccountRow } from './accounts.js';

export type { AccountRow };

/**
 * The one way a handler resolves an institution that an input names (DESIGN §6): it must be in
 * the caller's scope AND exist, else the answer is "not found". Scope alone is not enough for the
 * super account (its scope is 'all'), and an unknown code must never reach the database as a
 * foreign-key failure.
 */
export async function accountInScope(ctx: Ctx, db: DbOrTx, musercode: string): Promise<AccountRow> {
  assertInScope(ctx.me, musercode);
  return (await accountRow(db, musercode)) ?? notFound();
}

/**
 * The institution a new row belongs to: the one the input names (optional `musercode`, checked
 * as above) or, when none is named (absent or ''), the caller's own.
 */
export function ownerAccount(ctx: Ctx, db: DbOrTx, musercode: string | undefined): Promise<AccountRow> {
  return accountInScope(ctx, db, musercode || ctx.me.musercode);
}

/**
 * The institution filter of a list: rows of the named institution (in scope, else not found)
 * or, when none is named (absent or ''), of every institution the caller may see.
 */
export function ownedBy(ctx: Ctx, column: AnyPgColumn, musercode: string | undefined): SQL {
  if (!musercode) return scopeWhere(column, ctx.me);
  assertInScope(ctx.me, musercode);
  return eq(column, musercode);
}
