/**
 * Staff users' and departments' contact details at rest (issue 30 §3): a staff user's phone number
 * sealed in sysuser.phonenumber, with its blind index in phonehash for the list's exact search; a
 * department's in dept.phonenumber, unsearched; the email of both sealed, unsearched. Everything
 * that writes or reads those rows goes through these, so no plain phone number or email reaches
 * the tables and none leaves them sealed.
 */
import { blindIndex, normalisePhone as normalise, open, seal, type SealedField } from '../../kit/crypt/index.js';

interface Contact {
  phonenumber?: string;
  email?: string;
}

/** A sealed column to write ('' for none); nothing when it is not being changed. */
const sealedColumn = <K extends keyof Contact>(column: K, value: string | undefined): Partial<Record<K, string>> =>
  value === undefined ? {} : ({ [column]: seal(value) ?? '' } as Partial<Record<K, string>>);

/** A staff user's contact columns to write: the phone with its blind index, and the email. */
export function staffContactColumns({ phonenumber, email }: Contact): Contact & { phonehash?: string | null } {
  return {
    ...sealedColumn('phonenumber', phonenumber),
    ...(phonenumber === undefined ? {} : { phonehash: phonenumber ? blindIndex(normalise(phonenumber)) : null }),
    ...sealedColumn('email', email),
  };
}

/** A department's contact columns to write. */
export const deptContactColumns = ({ phonenumber, email }: Contact): Contact => ({
  ...sealedColumn('phonenumber', phonenumber),
  ...sealedColumn('email', email),
});

/** The blind index a search for this phone number looks up. */
export const staffPhoneHash = (phone: string) => blindIndex(normalise(phone));

/** A staff user's or department's row with its phone number and email opened. */
export const openContact = <T extends { phonenumber: string; email: string }>(row: T): T => ({
  ...row,
  phonenumber: open(row.phonenumber) ?? '',
  email: open(row.email) ?? '',
});

/** The sealed columns of system's tables (the start-up step and the rotation command). */
export const systemSealedFields: SealedField[] = [
  { kind: 'text', table: 'sysuser', key: 'userid', column: 'phonenumber', hash: 'phonehash', normalise },
  { kind: 'text', table: 'sysuser', key: 'userid', column: 'email' },
  // A department's phone (often its head's own mobile) and email: sealed too, never searched.
  { kind: 'text', table: 'dept', key: 'deptid', column: 'phonenumber' },
  { kind: 'text', table: 'dept', key: 'deptid', column: 'email' },
];
