/**
 * A person's phone and ID numbers at rest (issue 30 §3): sealed in cuser.phonenumber / cuser.idcard
 * (kit/crypt), each with a blind index (phonehash, idcardhash) that exact search, import dedupe and
 * the one-living-person-per-ID-number rule use. Every writer of those columns goes through
 * identityColumns; every reader through openIdentity, for the rows it shows only.
 */
import type { ArchiveAnswer } from '@xinli/contract';
import { blindIndex, normalisePhone, open, openAnswers, seal, sealAnswers, type SealedField } from '../../kit/crypt/index.js';

/** What the blind indexes are computed over: the phone's digits (kit/crypt, as every sealed phone), the ID number's x upper-cased. */
const normaliseIdCard = (idcard: string) => idcard.trim().toUpperCase();

export const phoneHash = (phone: string) => blindIndex(normalisePhone(phone));
export const idCardHash = (idcard: string) => blindIndex(normaliseIdCard(idcard));

interface Identity {
  phonenumber?: string | null;
  idcard?: string | null;
}

/** The columns to write for the identifiers given (null or '' clears one; an absent one is not touched). */
export function identityColumns(p: Identity) {
  return {
    ...(p.phonenumber !== undefined ? { phonenumber: seal(p.phonenumber || null), phonehash: p.phonenumber ? phoneHash(p.phonenumber) : null } : {}),
    ...(p.idcard !== undefined ? { idcard: seal(p.idcard || null), idcardhash: p.idcard ? idCardHash(p.idcard) : null } : {}),
  };
}

/** The person's identifiers opened (a value that fails its integrity check refuses the request). */
export const openIdentity = <T extends { phonenumber: string | null; idcard: string | null }>(row: T): T => ({
  ...row,
  phonenumber: open(row.phonenumber),
  idcard: open(row.idcard),
});

/** The sealed columns of persons' tables (the start-up step and the rotation command). */
export const personsSealedFields: SealedField[] = [
  { kind: 'text', table: 'cuser', key: 'cusercode', column: 'phonenumber', hash: 'phonehash', normalise: normalisePhone },
  { kind: 'text', table: 'cuser', key: 'cusercode', column: 'idcard', hash: 'idcardhash', normalise: normaliseIdCard },
  { kind: 'answers', table: 'cuser', key: 'cusercode', column: 'archive', field: 'value' },
];

/**
 * Archive answers at rest: each fill-in (a string `value`) sealed as `sealed`; choices and numbers
 * stay plain. The consultation domain stores registrations' answers the same way.
 */
export const sealArchive = (answers: ArchiveAnswer[]): ArchiveAnswer[] => sealAnswers(answers, 'value');
/** Archive answers as given (for the rows shown only). */
export const openArchive = (answers: ArchiveAnswer[]): ArchiveAnswer[] => openAnswers(answers, 'value');
