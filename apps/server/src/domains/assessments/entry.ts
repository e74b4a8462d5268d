import type { DbOrTx } from '../../db/database.js';
import { entryOfAccount, resolveEntryToken as resolveAccountEntry } from '../accounts/index.js';

/**
 * What the respondent channel needs from an institution's respondent entry (issue 10, accounts
 * domain: the QR link `/r/<token>` and its settings), in the words of this domain.
 */
export interface EntrySettings {
  musercode: string;
  title: string;
  logourl: string;
  welcome: string;
  consent: string;
  /** Apps offered through the QR link. */
  appids: string[];
  /** Stages offered; empty: every stage of the institution (own or given) for those apps. */
  stagecodes: string[];
  /** 1: respondents see a plain-language result. */
  showresult: number;
  /** The institution's crisis hotline, shown with the crisis text. */
  hotline: string;
}

const settingsOf = (e: EntrySettings): EntrySettings => ({
  musercode: e.musercode,
  title: e.title,
  logourl: e.logourl,
  welcome: e.welcome,
  consent: e.consent,
  appids: e.appids,
  stagecodes: e.stagecodes,
  showresult: e.showresult,
  hotline: e.hotline,
});

/** The institution a QR link token opens (null: unknown, reset since, or its account disabled). */
export async function resolveEntryToken(db: DbOrTx, token: string): Promise<EntrySettings | null> {
  const found = await resolveAccountEntry(db, token);
  return found ? settingsOf(found.entry) : null;
}

/** An institution's entry settings (null: it has no entry; the channel's defaults apply). */
export async function entrySettingsOf(db: DbOrTx, musercode: string): Promise<EntrySettings | null> {
  const row = await entryOfAccount(db, musercode);
  return row ? settingsOf(row) : null;
}
