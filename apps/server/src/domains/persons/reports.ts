/**
 * HOOK: a person's reports over time, for the archive (getCUserArchive) and the person detail.
 *
 * Reports are stored by the exam domain (issue 11, branch h11-exam), which exports
 * `reportsOfPerson(db, cusercode, lang)`. Until that branch is merged here these two functions
 * answer "no reports"; the merge replaces their bodies with calls to the exam domain's exports.
 */
import type { Lang, PersonReport } from '@xinli/contract';
import type { DbOrTx } from '../../db/database.js';

export async function reportsOfPerson(_db: DbOrTx, _cusercode: string, _lang: Lang): Promise<PersonReport[]> {
  return [];
}

export async function reportCountOfPerson(_db: DbOrTx, _cusercode: string): Promise<number> {
  return 0;
}
