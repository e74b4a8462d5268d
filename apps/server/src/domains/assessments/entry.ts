import type { DbOrTx } from '../../db/database.js';

/**
 * What the respondent channel needs from an institution's respondent entry (issue 10, accounts
 * domain: the QR link `/r/<token>` and its settings). The accounts domain owns the table; these
 * two functions are the only way in.
 */
export interface EntrySettings {
  musercode: string;
  title: string;
  logourl: string;
  welcome: string;
  consent: string;
  /** Apps offered through the QR link. */
  appids: string[];
  /** Stages offered; empty: every stage of the institution for those apps. */
  stagecodes: string[];
  /** 1: respondents see a plain-language result. */
  showresult: number;
  /** The institution's crisis hotline, shown with the crisis text. */
  hotline: string;
}

// HOOK (until branch h10-server, which owns muser_entry, is merged): no institution has an entry
// yet, so QR links are unknown and every institution uses the defaults of respondent.ts.
export async function resolveEntryToken(_db: DbOrTx, _token: string): Promise<EntrySettings | null> {
  return null;
}

export async function entrySettingsOf(_db: DbOrTx, _musercode: string): Promise<EntrySettings | null> {
  return null;
}
