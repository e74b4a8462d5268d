import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { openContact, staffContactColumns } from './contact.js';
import { sysuser } from './tables.js';

/**
 * A staff user's whole row, for auth: signing in and changing one's own profile or password.
 * Other domains name staff users through staff.ts (briefs) and common.ts (names, counts).
 */
export type StaffUserRecord = typeof sysuser.$inferSelect;

/** The fields of a staff user its own profile changes (never its id or institution). */
export type StaffUserChange = Partial<Omit<typeof sysuser.$inferInsert, 'userid' | 'musercode'>>;

/** The staff user with this id, or undefined. */
export async function staffUserRecord(db: DbOrTx, userid: string): Promise<StaffUserRecord | undefined> {
  const [row] = await db.select().from(sysuser).where(eq(sysuser.userid, userid));
  return row && openContact(row);
}

/** The staff user signing in with exactly this name, or undefined. */
export async function staffUserOfSignInName(db: DbOrTx, sysusername: string): Promise<StaffUserRecord | undefined> {
  const [row] = await db.select().from(sysuser).where(eq(sysuser.sysusername, sysusername));
  return row && openContact(row);
}

/** Changes a staff user's fields. */
export async function changeStaffUser(db: DbOrTx, userid: string, change: StaffUserChange): Promise<void> {
  const { phonenumber, email, ...rest } = change;
  await db
    .update(sysuser)
    .set({ ...rest, ...staffContactColumns({ phonenumber, email }) })
    .where(eq(sysuser.userid, userid));
}
