import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import { eq } from 'drizzle-orm';
import { fileLimits } from '@xinli/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { STORAGE_KEY, DiskStorage, type ByteRange, type FileStorage } from '../../kit/storage/index.js';
import { mayServeFile, signatureMatches, storageOf, uploadSignature, urlSecret, whilePending } from './files.js';
import { storedFile } from './tables.js';

/** Types a browser shows in place; everything else (Excel) is only ever downloaded. */
const INLINE = /^(image\/(png|jpeg|gif|webp)|audio\/|video\/|application\/pdf$)/;

/** A Content-Disposition with the uploader's name, ASCII fallback and RFC 5987 UTF-8 form. */
export function disposition(type: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * The one byte range a request asks for (audio and video players seek with them), read with the
 * maintained range-parser: null to send the whole file (no Range, a malformed one, several ranges,
 * or an If-Range we cannot match, as we send no validators: RFC 9110 §14.2 lets a server do so);
 * `unsatisfiable` with the size when the range starts past the end (416).
 */
async function rangeOf(req: FastifyRequest, storage: FileStorage, key: string): Promise<ByteRange | { unsatisfiable: number } | null | 'missing'> {
  const header = req.headers.range;
  if (!header || req.headers['if-range']) return null;
  const size = await storage.size(key);
  if (size === null) return 'missing';
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return { unsatisfiable: size };
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('Not found');

/**
 * GET /files/<key>: a ready file, streamed from the storage with the type its content was found to
 * be, a Content-Disposition, `nosniff` and a CSP that lets nothing run (a file is never a page of
 * this origin). The key is 128 random bits: the URL itself is the capability (article images are
 * shown to respondents, who carry no staff token); listing, uploading and deleting need permissions.
 * A single byte range is answered 206 with Content-Range, so audio and video can seek.
 *
 * PUT /files/upload/<fileid>?exp&sig: the upload target of disk storage, signed by
 * as.m.access.updateToOSSPath for one pending file, its size and an expiry; the bytes are counted as
 * they arrive and more than declared are refused; they take the file's place only while it is pending.
 */
export async function registerFileRoutes(app: FastifyInstance, deps: { db: Db; config: Config; now: () => Date }) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

    scope.route<{ Params: { key: string } }>({
      method: ['GET', 'HEAD'],
      url: '/files/:key',
      handler: async (req, reply) => {
        const { key } = req.params;
        if (!STORAGE_KEY.test(key)) return notFound(reply);
        const [row] = await deps.db.select().from(storedFile).where(eq(storedFile.key, key));
        if (!row || row.status !== 'ready') return notFound(reply);
        // Lesson media only by an unexpired signed URL (files.ts mayServeFile).
        if (!(await mayServeFile(deps.db, deps.config, row, req.query, deps.now()))) return notFound(reply);
        const storage = storageOf(deps.config);
        const range = await rangeOf(req, storage, key);
        if (range === 'missing') return notFound(reply);
        reply
          .header('content-type', row.contenttype)
          .header('accept-ranges', 'bytes')
          .header('content-disposition', disposition(INLINE.test(row.contenttype) ? 'inline' : 'attachment', row.filename))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cross-origin-resource-policy', 'same-origin')
          .header('cache-control', 'private, max-age=3600');
        if (range && 'unsatisfiable' in range)
          return reply.code(416).header('content-range', `bytes */${range.unsatisfiable}`).type('text/plain; charset=utf-8').send('Range Not Satisfiable');
        const found = await storage.get(key, range ?? undefined);
        if (!found) return notFound(reply);
        if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${found.size}`);
        reply.header('content-length', String(range ? range.end - range.start + 1 : found.size));
        if (req.method === 'HEAD') {
          found.body.destroy?.();
          return reply.send();
        }
        return reply.send(found.body);
      },
    });

    scope.put<{ Params: { fileid: string }; Querystring: { exp?: string; sig?: string } }>(
      '/files/upload/:fileid',
      { bodyLimit: fileLimits.video },
      async (req, reply) => {
        const refuse = (status: number, message: string) => reply.code(status).type('text/plain; charset=utf-8').send(message);
        const storage = storageOf(deps.config);
        const { fileid } = req.params;
        const exp = Number(req.query.exp);
        const sig = String(req.query.sig ?? '');
        if (
          !(storage instanceof DiskStorage) ||
          !/^[A-Za-z0-9_-]{1,64}$/.test(fileid) ||
          !Number.isSafeInteger(exp) ||
          !/^[0-9a-f]{64}$/.test(sig)
        )
          return refuse(403, 'Forbidden');
        const [row] = await deps.db.select().from(storedFile).where(eq(storedFile.fileid, fileid));
        if (!row || row.status !== 'pending') return refuse(403, 'Forbidden');
        if (!signatureMatches(uploadSignature(await urlSecret(deps.db, deps.config), fileid, row.size, exp), sig))
          return refuse(403, 'Forbidden');
        if (exp < deps.now().getTime()) return refuse(403, 'Expired');
        // The bytes go to a temporary name; they replace the file only if it is still pending when the
        // last byte has arrived (whilePending: under the file's row lock, which confirmation takes too).
        // A PUT that began while the file was pending and finished after confirmation leaves nothing.
        let put: { bytes: number; placed: boolean };
        try {
          put = await storage.putStream(row.key, req.body as NodeJS.ReadableStream, row.size, (place) => whilePending(deps.db, fileid, place));
        } catch {
          return refuse(413, 'Larger than declared');
        }
        if (put.bytes !== row.size) return refuse(400, 'Size differs from the size declared');
        if (!put.placed) return refuse(409, 'The file was confirmed meanwhile and can no longer change');
        return reply.code(200).send();
      },
    );
  });
}
