/**
 * Field encryption at rest (issue 30 §3; PIPL Art. 51): AES-256-GCM with a random 96-bit IV per
 * value, and a keyed hash (HMAC-SHA-256) as the blind index that exact search and uniqueness use.
 *
 * A sealed value is `v1.<keyId>.<iv>.<ciphertext+tag>` (base64url parts): the key id says which key
 * opens it, so the key can be rotated (README "Data key") while old values are still read. The
 * process holds one keyring: the current key (every new value), the previous keys (read only, while
 * `npm run data-key:rotate` re-encrypts) and the blind-index key. The index key never changes with
 * the data key: it is derived from the first data key of the database and kept there, sealed
 * (data_key table), so a rotation never has to recompute a hash and uniqueness holds throughout.
 *
 * A value that fails its tag (tampered, truncated, or sealed under a key this process lacks) is
 * refused with an error the caller sees in their language: never shown as garbage.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../http/errors.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A data key as configured (DATA_KEY, DATA_KEY_FILE, DATA_KEY_PREVIOUS) with its derived parts. */
export interface DataKey {
  /** 8 base64url characters derived from the key (not secret): which key sealed a value. */
  id: string;
  /** The AES-256-GCM key (HKDF of the data key). */
  enc: Buffer;
  /** The data key itself, from which the first blind-index key of a database is derived. */
  raw: Buffer;
}

interface Keyring {
  current: DataKey;
  byId: Map<string, DataKey>;
  /** Null until the database's index key is loaded (loadIndexKey in db/data-key.ts). */
  index: Buffer | null;
}

let ring: Keyring | null = null;

const b64 = (b: Buffer) => b.toString('base64url');
const hkdf = (key: Buffer, info: string) => Buffer.from(crypto.hkdfSync('sha256', key, Buffer.alloc(0), info, KEY_BYTES));

/** A data key from its 32 raw bytes. */
export function dataKey(raw: Buffer): DataKey {
  if (raw.length !== KEY_BYTES) throw new Error(`a data key is ${KEY_BYTES} bytes (base64 of 32 random bytes), not ${raw.length}`);
  const id = b64(hkdf(raw, 'xinli key id')).slice(0, 8);
  return { id, enc: hkdf(raw, 'xinli field encryption v1'), raw };
}

/** Parses a base64 (or base64url) key as DATA_KEY holds it. */
export function parseDataKey(text: string, what = 'DATA_KEY'): DataKey {
  const raw = Buffer.from(text.trim(), text.includes('-') || text.includes('_') ? 'base64url' : 'base64');
  if (raw.length !== KEY_BYTES) throw new Error(`${what} must be base64 of 32 random bytes (openssl rand -base64 32)`);
  return dataKey(raw);
}

/** A new random key, base64: what `openssl rand -base64 32` prints. */
export const newDataKeyText = () => crypto.randomBytes(KEY_BYTES).toString('base64');

/** Installs the process's keyring: the current key and the previous ones still accepted for reading. */
export function useDataKeys(current: DataKey, previous: DataKey[] = []) {
  const byId = new Map<string, DataKey>();
  for (const k of [...previous, current]) byId.set(k.id, k);
  ring = { current, byId, index: ring?.index ?? null };
}

/** Installs the blind-index key (loaded from or first stored in the database). */
export function useIndexKey(key: Buffer) {
  if (!ring) throw new Error('no data key installed');
  ring.index = key;
}

function keyring(): Keyring {
  if (!ring) throw new Error('no data key installed (DATA_KEY or DATA_KEY_FILE; README "Data key")');
  return ring;
}

export const currentKey = (): DataKey => keyring().current;

/**
 * IVs are cut from a pool of random bytes drawn 1,024 IVs at a time: one call into the CSPRNG per
 * 1,024 values instead of one per value (a 50,000-row import seals 150,000). Each IV is still 96
 * fresh random bits, used once (the pool is consumed, never reread).
 */
const IV_POOL = IV_BYTES * 1024;
let ivPool = Buffer.alloc(0);
let ivAt = IV_POOL;
function freshIv(): Buffer {
  if (ivAt + IV_BYTES > ivPool.length) {
    ivPool = crypto.randomBytes(IV_POOL);
    ivAt = 0;
  }
  ivAt += IV_BYTES;
  return ivPool.subarray(ivAt - IV_BYTES, ivAt);
}

/** Encrypts a text under the current key; null and '' stay as they are (nothing to hide). */
export function seal(text: string): string;
export function seal(text: string | null | undefined): string | null;
export function seal(text: string | null | undefined): string | null {
  if (text === null || text === undefined || text === '') return text ?? null;
  const key = keyring().current;
  const iv = freshIv();
  const cipher = crypto.createCipheriv('aes-256-gcm', key.enc, iv);
  // The key id is bound into the tag, so a value cannot be relabelled to another key.
  cipher.setAAD(Buffer.from(`${VERSION}.${key.id}`));
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${key.id}.${b64(iv)}.${b64(body)}`;
}

/** Whether a stored value has the shape of a sealed one (what the start-up step and rotation look for). */
export const isSealed = (value: string | null | undefined): boolean => !!value && /^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]{22,}$/.test(value);

/** The key id a sealed value names. */
export const sealedKeyId = (value: string) => value.split('.')[1] ?? '';

/** The refusal of a value that does not open: the caller's request fails, nothing is shown. */
export class SealedValueError extends AppError {
  constructor() {
    super('internal', {
      zh: '加密存储的数据未通过完整性校验（可能被篡改或密钥不符），已拒绝显示',
      en: 'An encrypted value failed its integrity check (tampered with, or not sealed by a key this server holds); it is not shown',
    });
  }
}

/** Decrypts a sealed value; null and '' stay as they are; anything that fails its tag is refused. */
export function open(value: string): string;
export function open(value: string | null | undefined): string | null;
export function open(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return value ?? null;
  const parts = value.split('.');
  const key = parts.length === 4 && parts[0] === VERSION ? keyring().byId.get(parts[1]!) : undefined;
  if (!key) throw new SealedValueError();
  try {
    const iv = Buffer.from(parts[2]!, 'base64url');
    const body = Buffer.from(parts[3]!, 'base64url');
    if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SealedValueError();
    const decipher = crypto.createDecipheriv('aes-256-gcm', key.enc, iv);
    decipher.setAAD(Buffer.from(`${VERSION}.${key.id}`));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedValueError();
  }
}

/** Re-seals a value under the current key (rotation); a value already under it is answered as is. */
export function reseal(value: string | null): string | null {
  if (!value || sealedKeyId(value) === keyring().current.id) return value;
  return seal(open(value));
}

/** A phone number as its blind index is computed over: without the spaces and hyphens forms allow. */
export const normalisePhone = (phone: string) => phone.replace(/[\s-]+/g, '');

/**
 * The blind index of a text: HMAC-SHA-256 under the index key, base64url. Callers normalise first
 * (trimmed, the ID number's x upper-cased) so the same identifier always gives the same hash.
 */
export function blindIndex(text: string): string {
  const key = keyring().index;
  if (!key) throw new Error('the blind-index key is not loaded (startServer loads it from the database)');
  return crypto.createHmac('sha256', key).update(text, 'utf8').digest('base64url');
}

/** The first blind-index key of a database: derived from the data key current when it is first stored. */
export const deriveIndexKey = (key: DataKey) => hkdf(key.raw, 'xinli blind index v1');

/**
 * The data key of the embedded database (no DATA_KEY given): `<dataDir>/data.key`, made on first
 * start with mode 0600. Losing the file loses the encrypted fields (README "Data key").
 */
export function dataFolderKey(dataDir: string): string {
  const file = path.join(dataDir, 'data.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const text = newDataKeyText();
  // wx: two processes starting at once never overwrite each other's key.
  try {
    fs.writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
    return text;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw e;
  }
}
