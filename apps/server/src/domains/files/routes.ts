import type { FastifyInstance, FastifyReply } from 'fastify';
import { eq } from 'drizzle-orm';
import { fileLimits } from '@xinli/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { STORAGE_KEY, DiskStorage } from '../../kit/storage/index.js';
import { signatureMatches, storageOf, uploadSignature, urlSecret } from './files.js';
import { storedFile } from './tables.js';

/** Types a browser shows in place; everything else (Excel) is only ever downloaded. */
const INLINE = /^(image\/(png|jpeg|gif|webp)|audio\/|video\/|application\/pdf$)/;

/** A Content-Disposition with the uploader's name, ASCII fallback and RFC 5987 UTF-8 form. */
export function disposition(type: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('Not found');

/**
 * GET /files/<key>: a ready file, streamed from the storage with the type its content was found to
 * be, a Content-Disposition, `nosniff` and a CSP that lets nothing run (a file is never a page of
 * this origin). The key is 128 random bits: the URL itself is the capability (article images are
 * shown to respondents, who carry no staff token); listing, uploading and deleting need permissions.
 *
 * PUT /files/upload/<fileid>?exp&sig: the upload target of disk storage, signed by
 * as.m.access.updateToOSSPath for one pending file, its size and an expiry; the bytes are counted as
 * they arrive and more than declared are refused.
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
        const found = await storageOf(deps.config).get(key);
        if (!found) return notFound(reply);
        reply
          .header('content-type', row.contenttype)
          .header('content-length', String(found.size))
          .header('content-disposition', disposition(INLINE.test(row.contenttype) ? 'inline' : 'attachment', row.filename))
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cross-origin-resource-policy', 'same-origin')
          .header('cache-control', 'private, max-age=3600');
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
        try {
          const n = await storage.putStream(row.key, req.body as NodeJS.ReadableStream, row.size);
          if (n !== row.size) {
            await storage.delete(row.key);
            return refuse(400, 'Size differs from the size declared');
          }
        } catch {
          return refuse(413, 'Larger than declared');
        }
        return reply.code(200).send();
      },
    );
  });
}
