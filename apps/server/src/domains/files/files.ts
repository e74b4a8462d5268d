import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { fileTypes, type FileUse, type StoredFile } from '@xinli/contract';
import type { Config } from '../../config.js';
import type { Db, DbOrTx } from '../../db/database.js';
import { storageFor, type FileStorage } from '../../kit/storage/index.js';
import { checkFile } from '../../kit/upload/sniff.js';
import { notFound } from '../../http/errors.js';
import { newId } from '../../kit/index.js';
import { fileSetting, fileUse, storedFile } from './tables.js';

/**
 * The files domain's functions for other domains (DESIGN §4): the storage of a configuration,
 * keys and URLs, and the uses content makes of files.
 */

const storages = new WeakMap<Config, FileStorage>();
/** The one storage of a configuration (its S3 client is reused by every request). */
export function storageOf(config: Config): FileStorage {
  let s = storages.get(config);
  if (!s) storages.set(config, (s = storageFor(config)));
  return s;
}

/** A fresh storage key: 128 random bits and an extension (never the uploader's name). */
export const newKey = (ext: string) => `${randomBytes(16).toString('hex')}.${ext}`;

/** Where a file is served (same origin as the console and respondent pages). */
export const fileUrl = (key: string) => `/files/${key}`;

/**
 * Files used as this kind of content (a course's lesson media, which may be sold) are served only by
 * signed URLs that expire (issue 27 item 11): handed out by the content's owner to whoever may see
 * it now, they stop working SIGNED_URL_MS later; the bare /files/<key> of such a file answers 404.
 */
export const SIGNED_USE = 'lesson';
/** Long enough to watch a long lesson and seek in it (each seek is a new ranged request). */
export const SIGNED_URL_MS = 2 * 3_600_000;
const viewSignature = (secret: string, key: string, expires: number) =>
  createHmac('sha256', secret).update(`get\n${key}\n${expires}`).digest('hex');

/** Signs file URLs valid until `now` + SIGNED_URL_MS (one secret read for any number of keys). */
export async function fileUrlSigner(db: Db, config: Config, now: Date): Promise<(key: string) => string> {
  const secret = await urlSecret(db, config);
  const exp = now.getTime() + SIGNED_URL_MS;
  return (key) => `${fileUrl(key)}?exp=${exp}&sig=${viewSignature(secret, key, exp)}`;
}

/** Whether GET /files/<key> may answer: a file used as SIGNED_USE only with a signature of this server that has not expired. */
export async function mayServeFile(
  db: Db,
  config: Config,
  file: { fileid: string; key: string },
  query: unknown,
  now: Date,
): Promise<boolean> {
  const [signed] = await db
    .select({ fileid: fileUse.fileid })
    .from(fileUse)
    .where(and(eq(fileUse.fileid, file.fileid), eq(fileUse.kind, SIGNED_USE)))
    .limit(1);
  if (!signed) return true;
  const { exp, sig } = (query ?? {}) as { exp?: unknown; sig?: unknown };
  const expires = Number(exp);
  if (!Number.isSafeInteger(expires) || typeof sig !== 'string' || expires <= now.getTime()) return false;
  return signatureMatches(viewSignature(await urlSecret(db, config), file.key, expires), sig);
}

export type FileRecord = typeof storedFile.$inferSelect;

export const fileOut = (r: FileRecord): StoredFile => ({
  fileid: r.fileid,
  musercode: r.musercode,
  use: r.use as FileUse,
  filename: r.filename,
  contenttype: r.contenttype,
  size: r.size,
  key: r.key,
  url: fileUrl(r.key),
  status: r.status as StoredFile['status'],
});

/** The extension and content type a signed upload is expected to carry, from its name (checked again on confirm). */
const EXT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  aac: 'audio/aac',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
export function claimedType(use: FileUse, filename: string): { ext: string; contenttype: string } {
  const ext = (/\.([A-Za-z0-9]{2,5})$/.exec(filename)?.[1] ?? '').toLowerCase();
  const type = EXT_TYPES[ext];
  if (type && fileTypes[use].includes(type)) return { ext: ext === 'jpeg' ? 'jpg' : ext, contenttype: type };
  const first = fileTypes[use][0]!;
  return { ext: Object.entries(EXT_TYPES).find(([, t]) => t === first)![0], contenttype: first };
}

/** The secret that signs this server's upload targets: FILE_URL_SECRET, else one kept in the database for every process. */
export async function urlSecret(db: Db, config: Config): Promise<string> {
  if (config.files.urlSecret) return config.files.urlSecret;
  await db
    .insert(fileSetting)
    .values({ name: 'urlsecret', value: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select({ value: fileSetting.value }).from(fileSetting).where(eq(fileSetting.name, 'urlsecret'));
  return row!.value;
}

/** The signature of a disk upload target: the file, its size and the instant it expires. */
export function uploadSignature(secret: string, fileid: string, size: number, expires: number): string {
  return createHmac('sha256', secret).update(`put\n${fileid}\n${size}\n${expires}`).digest('hex');
}

export function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected, 'hex');
  const b = Buffer.from(given, 'hex');
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/**
 * Files an institution may use in its content, by id: each must exist, be ready, belong to
 * `musercode` and be of the given use (or one of the uses given); answers the records by id, the first id that does not fit
 * (`bad`), and the first that is not the institution's at all (`missing`: callers answer "not
 * found", as for any object of another institution).
 */
export async function usableFiles(db: DbOrTx, musercode: string, wanted: { fileid: string; use: FileUse | FileUse[] }[]) {
  const ids = [...new Set(wanted.map((w) => w.fileid))];
  const rows = ids.length
    ? await db
        .select()
        .from(storedFile)
        .where(and(inArray(storedFile.fileid, ids), eq(storedFile.musercode, musercode)))
    : [];
  const byId = new Map(rows.map((r) => [r.fileid, r]));
  const missing = wanted.find((w) => !byId.has(w.fileid));
  const bad = wanted.find((w) => {
    const r = byId.get(w.fileid);
    return !r || r.status !== 'ready' || ![w.use].flat().includes(r.use as FileUse);
  });
  return { files: byId, bad: bad?.fileid ?? null, missing: missing?.fileid ?? null };
}

/** Files by storage key (content names images in rich text by their URL). */
export async function filesByKeys(db: DbOrTx, keys: string[]) {
  if (!keys.length) return [];
  return db
    .select()
    .from(storedFile)
    .where(inArray(storedFile.key, [...new Set(keys)]));
}

/** Replaces the files one piece of content uses (in the caller's transaction). */
export async function setFileUses(tx: DbOrTx, kind: string, ownerid: string, fileids: string[]) {
  await tx.delete(fileUse).where(and(eq(fileUse.kind, kind), eq(fileUse.ownerid, ownerid)));
  const ids = [...new Set(fileids)];
  if (ids.length) await tx.insert(fileUse).values(ids.map((fileid) => ({ fileid, kind, ownerid })));
}

/** Uses per file. */
export async function useCounts(db: DbOrTx, fileids: string[]): Promise<Map<string, number>> {
  if (!fileids.length) return new Map();
  const rows = await db
    .select({ fileid: fileUse.fileid, n: sql<number>`count(*)::int` })
    .from(fileUse)
    .where(inArray(fileUse.fileid, fileids))
    .groupBy(fileUse.fileid);
  return new Map(rows.map((r) => [r.fileid, Number(r.n)]));
}

export interface NewFile {
  musercode: string;
  use: FileUse;
  /** The uploader's name for it (shown only). */
  filename: string;
  bytes: Buffer;
  createdby: string;
  now: Date;
}

/** Checks a whole file for its use, stores it under a fresh key and records it (updateToOSS, and the demo seed). */
export async function storeFile(db: DbOrTx, storage: FileStorage, f: NewFile): Promise<FileRecord> {
  const found = await checkFile(f.use, f.bytes);
  const key = newKey(found.ext);
  await storage.put(key, f.bytes, found.contenttype);
  const [row] = await db
    .insert(storedFile)
    .values({
      fileid: newId('FL'),
      musercode: f.musercode,
      use: f.use,
      filename: f.filename,
      key,
      contenttype: found.contenttype,
      size: f.bytes.length,
      status: 'ready',
      createdby: f.createdby,
      createdat: f.now,
    })
    .returning();
  return row!;
}

/**
 * Runs `work` while holding the file's row, only if the file is still pending; answers whether it ran.
 * A signed upload moves its bytes into place under it, and confirmation marks the file ready under it:
 * the two never interleave, so a confirmed file can never change (issue 27 item 13).
 */
export async function whilePending(db: Db, fileid: string, work: (tx: DbOrTx) => Promise<void>): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ fileid: storedFile.fileid })
      .from(storedFile)
      .where(and(eq(storedFile.fileid, fileid), eq(storedFile.status, 'pending')))
      .for('update');
    if (!row) return false;
    await work(tx);
    return true;
  });
}

/** "Not found" for a file id that is not the institution's (another institution's file is never "invalid"). */
export const noSuchFile = (): never => notFound({ zh: '文件不存在', en: 'No such file' });

/**
 * Removes files for good, bytes and record (erasure of a person's identity: a guardian's signature).
 * The records go first, inside the caller's transaction; the bytes are unreachable once they are gone.
 */
export async function removeFiles(db: DbOrTx, storage: FileStorage, fileids: string[]): Promise<number> {
  if (!fileids.length) return 0;
  const rows = await db.delete(storedFile).where(inArray(storedFile.fileid, fileids)).returning({ key: storedFile.key });
  for (const r of rows) await storage.delete(r.key);
  return rows.length;
}
