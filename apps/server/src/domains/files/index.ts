/**
 * What other domains may call of files (DESIGN §4: through exported functions).
 *
 * - fileUrls(db, ids): where each file is served, by id (covers, audio: one query for a page).
 * - servedFiles(db, ids): the same with each file's key and type (signed lesson URLs, audio or video).
 * - usableFiles, setFileUses, noSuchFile, filesByKeys: checking the files content names (by id, or
 *   by the key in a rich text's URL), and recording its uses.
 * - fileUrlSigner, SIGNED_USE: the signed URLs of files that are served only so (a course's lessons).
 * - storeFile, removeFiles: storing a checked file (a guardian's signature) and removing files for good (erasure).
 */
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { fileUrl } from './files.js';
import { storedFile } from './tables.js';

export { fileUrlSigner, filesByKeys, newKey, noSuchFile, removeFiles, setFileUses, SIGNED_USE, storageOf, storeFile, usableFiles } from './files.js';

/** The files of some ids (null, empty and repeated ids are skipped) with their URL, key and type, by id. */
export async function servedFiles(
  db: DbOrTx,
  ids: (string | null | undefined)[],
): Promise<Map<string, { url: string; key: string; contenttype: string }>> {
  const list = [...new Set(ids.filter((x): x is string => !!x))];
  if (!list.length) return new Map();
  const rows = await db
    .select({ fileid: storedFile.fileid, key: storedFile.key, contenttype: storedFile.contenttype })
    .from(storedFile)
    .where(inArray(storedFile.fileid, list));
  return new Map(rows.map((r) => [r.fileid, { url: fileUrl(r.key), key: r.key, contenttype: r.contenttype }]));
}

/** Where each file is served, by id (null, empty and repeated ids are skipped). */
export async function fileUrls(db: DbOrTx, ids: (string | null | undefined)[]): Promise<Map<string, string>> {
  return new Map([...(await servedFiles(db, ids))].map(([id, f]) => [id, f.url]));
}
