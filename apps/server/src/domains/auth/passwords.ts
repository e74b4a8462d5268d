import { createHash } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/**
 * The client sends the uppercase MD5 of the password (SPEC §5); the server treats that string
 * as the password and keeps only argon2id of it (OWASP's m=19 MiB, t=2, p=1 profile).
 */
// algorithm 2 is Argon2id (a const enum in the typings, so it is spelled as its value).
const params = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (md5Upper: string) => hash(md5Upper, params);

/** Verifying against this when the user is unknown keeps both answers equally slow. */
let dummy: Promise<string> | undefined;

export async function verifyPassword(stored: string | undefined, md5Upper: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hashPassword('0'.repeat(32));
    await verify(await dummy, md5Upper).catch(() => false);
    return false;
  }
  return verify(stored, md5Upper).catch(() => false);
}

/** What a browser sends for a typed password: the uppercase MD5 hex. */
export const md5Upper = (plain: string) => createHash('md5').update(plain, 'utf8').digest('hex').toUpperCase();
