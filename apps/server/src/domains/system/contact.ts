/**
 * A staff user's phone number at rest (issue 30 §3): sealed in sysuser.phonenumber, with its blind
 * index in phonehash for the list's exact search; a department's in dept.phonenumber, unsearched.
 * Everything that writes or reads those rows goes through these, so no plain phone number reaches
 * the tables and none leaves them sealed.
 */
import { blindIndex, normalisePhone as normalise, open, seal, type SealedField } from '../../kit/crypt/index.js';

/** The columns to write for a phone number given ('' for none); nothing when it is not being changed. */
export function staffPhoneColumns(phone: string | undefined): { phonenumber?: string; phonehash?: string | null } {
  if (phone === undefined) return {};
  return { phonenumber: seal(phone) ?? '', phonehash: phone ? blindIndex(normalise(phone)) : null };
}

/** A department's phone column to write ('' for none); nothing when it is not being changed. */
export const deptPhoneColumn = (phone: string | undefined): { phonenumber?: string } =>
  phone === undefined ? {} : { phonenumber: seal(phone) ?? '' };

/** The blind index a search for this phone number looks up. */
export const staffPhoneHash = (phone: string) => blindIndex(normalise(phone));

/** A staff user's row with its phone number opened. */
export const openStaffPhone = <T extends { phonenumber: string }>(row: T): T => ({ ...row, phonenumber: open(row.phonenumber) ?? '' });

/** The sealed columns of system's tables (the start-up step and the rotation command). */
export const systemSealedFields: SealedField[] = [
  { kind: 'text', table: 'sysuser', key: 'userid', column: 'phonenumber', hash: 'phonehash', normalise },
  // A department's phone (often its head's own mobile): sealed too, never searched.
  { kind: 'text', table: 'dept', key: 'deptid', column: 'phonenumber' },
];
