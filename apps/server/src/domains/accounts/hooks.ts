import type { DbOrTx } from '../../db/database.js';

/**
 * What accounts takes from the domains that build on it. Apps, plans, assessments, persons and
 * warnings all read accounts (owner checks, institution names), so accounts does not import them
 * back: the composition root (domains/index.ts) hands these in with `hookAccounts`, and each
 * dependency goes one way.
 */
export interface AccountHooks {
  /** What an institution's entry may offer: its apps (apps domain) and its stages with their app (plans domain). */
  offer: {
    appsOf(db: DbOrTx, musercode: string, issuper: boolean): Promise<{ appid: string }[]>;
    stagesOf(db: DbOrTx, musercode: string): Promise<{ stagecode: string; appid: string }[]>;
  };
  /** Undoing a burst of QR-link sign-ups: what the persons left behind, counted and removed by the domain that keeps it. */
  linkUndo: {
    /** The persons of the list that have a warning case (warnings domain), keyed by person. */
    latestCases(db: DbOrTx, cusercodes: string[]): Promise<Map<string, unknown>>;
    caseCount(db: DbOrTx, cusercodes: string[]): Promise<number>;
    resultCount(db: DbOrTx, cusercodes: string[]): Promise<number>;
    removeCases(tx: DbOrTx, cusercodes: string[]): Promise<number>;
    removeResults(tx: DbOrTx, cusercodes: string[]): Promise<number>;
    removePersons(tx: DbOrTx, cusercodes: string[], by: string, now: Date): Promise<number>;
  };
}

let hooks: AccountHooks | undefined;

export function hookAccounts(given: AccountHooks) {
  hooks = given;
}

/** The hooks handed in; without them an entry could offer anything and an undo would leave rows behind, so it fails instead. */
export function accountHooks(): AccountHooks {
  if (!hooks) throw new Error('accounts: no hooks were handed in (domains/index.ts calls hookAccounts)');
  return hooks;
}
