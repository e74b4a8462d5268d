import { asc, eq, sql } from 'drizzle-orm';
import { hashPassword, md5Upper, scopeWhere } from '../auth/index.js';
import type { DbOrTx } from '../../db/database.js';
import type { Caller } from '../../http/context.js';
import { preparedForKeys, referenceRead } from '../../kit/index.js';
import { muser } from './tables.js';

/**
 * What other domains may read of an institution account without touching the muser table
 * (DESIGN §4). No scope check here: callers check scope first (see owner.ts).
 */
export type AccountRow = { musercode: string; musertype: string; issuper: boolean; insname: string };

const accountColumns = { musercode: muser.musercode, musertype: muser.musertype, issuper: muser.issuper, insname: muser.insname };

/** One account's essentials, or undefined when no account has the code. */
export async function accountRow(db: DbOrTx, musercode: string): Promise<AccountRow | undefined> {
  const [row] = await db.select(accountColumns).from(muser).where(eq(muser.musercode, musercode));
  return row;
}

/**
 * The accounts above one (its provider, that provider's own owner...), nearest first: whose
 * second-factor policy applies to it and its staff (auth/second-factor-policy.ts). Bounded, as
 * ownership is two deep.
 */
export async function accountAncestors(db: DbOrTx, musercode: string): Promise<string[]> {
  const chain: string[] = [];
  let code: string | null = musercode;
  for (let depth = 0; code && depth < 4; depth++) {
    const [row]: { parentcode: string | null }[] = await db.select({ parentcode: muser.parentcode }).from(muser).where(eq(muser.musercode, code));
    code = row?.parentcode ?? null;
    if (code) chain.push(code);
  }
  return chain;
}

/** Institution names by code, for labelling rows of other domains; one institution's kept (kit/reference-reads: every respondent's sign-in names it). */
export async function accountNames(db: DbOrTx, musercodes: Iterable<string>): Promise<Map<string, string>> {
  const codes = [...new Set(musercodes)];
  if (!codes.length) return new Map();
  return keptAccountNames(db, codes);
}
async function readAccountNames(db: DbOrTx, codes: string[]): Promise<Map<string, string>> {
  const rows = await namesRead(db, codes);
  return new Map(rows.map((r) => [r.musercode, r.insname]));
}
const keptAccountNames = referenceRead('account_names', (codes: string[]) => (codes.length === 1 ? codes[0] : undefined), readAccountNames);
/** Prepared: a respondent's sign-in names the institution. */
const namesRead = preparedForKeys('account_names', (db, name, keyIs) =>
  db.select({ musercode: muser.musercode, insname: muser.insname }).from(muser).where(keyIs(muser.musercode)).prepare(name),
);

/** Whether an account signs in with this name, whatever the case (sign-in names are unique across accounts and staff users). */
export async function accountSignInNameTaken(db: DbOrTx, name: string): Promise<boolean> {
  const [account] = await db.select({ n: muser.musercode }).from(muser).where(sql`lower(${muser.username}) = lower(${name})`);
  return account !== undefined;
}

/** The accounts in the caller's scope for a picker, the caller's own first, at most `limit`. */
export function accountOptions(db: DbOrTx, me: Caller, limit: number): Promise<{ musercode: string; insname: string; musertype: string }[]> {
  return db
    .select({ musercode: muser.musercode, insname: muser.insname, musertype: muser.musertype })
    .from(muser)
    .where(scopeWhere(muser.musercode, me))
    .orderBy(sql`${muser.musercode} = ${me.musercode} desc`, asc(muser.musercode))
    .limit(limit);
}

/**
 * The platform's first administrator (the super account, type 005): what `npm run create-admin`
 * makes on a production database. `password` is the plain text; the account stores its hash.
 */
export async function createSuperAccount(db: DbOrTx, username: string, password: string): Promise<string> {
  const musercode = `M${Date.now().toString(36).toUpperCase()}`;
  await db.insert(muser).values({
    musercode,
    username,
    musertype: '005',
    insname: 'Administrator',
    issuper: true,
    appdialogexempt: true,
    pwdhash: await hashPassword(md5Upper(password)),
  });
  return musercode;
}
