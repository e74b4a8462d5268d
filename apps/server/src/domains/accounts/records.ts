import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { accountPhoneColumn, openAccountPhone } from './contact.js';
import { muser } from './tables.js';

/**
 * An institution account's whole row, for auth: signing in, acting as an account and changing its
 * profile or password. Other domains read accounts through accounts.ts (names, essentials).
 */
export type AccountRecord = typeof muser.$inferSelect;

/** The fields of an account its profile changes (never its code). */
export type AccountChange = Partial<Omit<typeof muser.$inferInsert, 'musercode'>>;

/** The account with this code, or undefined. */
export async function accountRecord(db: DbOrTx, musercode: string): Promise<AccountRecord | undefined> {
  const [row] = await db.select().from(muser).where(eq(muser.musercode, musercode));
  return row && openAccountPhone(row);
}

/** The account signing in with exactly this name, or undefined. */
export async function accountOfSignInName(db: DbOrTx, username: string): Promise<AccountRecord | undefined> {
  const [row] = await db.select().from(muser).where(eq(muser.username, username));
  return row && openAccountPhone(row);
}

/** Changes an account's fields; false when no account has the code. */
export async function changeAccount(db: DbOrTx, musercode: string, change: AccountChange): Promise<boolean> {
  const { phonenumber, ...rest } = change;
  const changed = await db
    .update(muser)
    .set({ ...rest, ...accountPhoneColumn(phonenumber) })
    .where(eq(muser.musercode, musercode))
    .returning({ m: muser.musercode });
  return changed.length > 0;
}
