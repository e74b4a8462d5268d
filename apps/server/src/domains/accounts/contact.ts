/**
 * An account's contact phone at rest (issue 30 §3): sealed in muser.phonenumber, as staff users'
 * and persons' phones are. Nothing searches it, so it has no blind index. Everything that writes
 * or reads an account's row goes through these, so no plain number reaches the table and none
 * leaves it sealed.
 */
import { open, seal, type SealedField } from '../../kit/crypt/index.js';

/** The column to write for a phone number given ('' for none); nothing when it is not being changed. */
export const accountPhoneColumn = (phone: string | undefined): { phonenumber?: string } =>
  phone === undefined ? {} : { phonenumber: seal(phone) ?? '' };

/** An account's row with its phone number opened. */
export const openAccountPhone = <T extends { phonenumber: string }>(row: T): T => ({ ...row, phonenumber: open(row.phonenumber) ?? '' });

/** The sealed columns of accounts' tables (the start-up step and the rotation command). */
export const accountsSealedFields: SealedField[] = [{ kind: 'text', table: 'muser', key: 'musercode', column: 'phonenumber' }];
