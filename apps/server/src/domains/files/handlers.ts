import { and, asc, desc, eq } from 'drizzle-orm';
import { fileLimits } from '@xinli/contract';
import type { HandlerMap } from '../../http/handlers.js';
import { conflict, invalid } from '../../http/errors.js';
import { contains, iso, newId, paged } from '../../kit/index.js';
import { ownedBy, ownerAccount, accountNames } from '../accounts/index.js';
import { checkFile, checkSize, checkType, fileRefused, SNIFF_BYTES } from '../../kit/upload/sniff.js';
import { base64Bytes } from '../../kit/upload/base64.js';
import { scopeWhere } from '../auth/index.js';
import {
  claimedType,
  fileOut,
  fileUrlSigner,
  newKey,
  noSuchFile,
  storageOf,
  storeFile,
  uploadSignature,
  urlSecret,
  useCounts,
  whilePending,
  type FileRecord,
} from './files.js';
import { storedFile } from './tables.js';

/** How long a signed upload target stays valid. */
export const UPLOAD_TARGET_MINUTES = 30;

/** The uploader's name for the file, shown only: its last path segment, without control characters. */
const displayName = (name: string) =>
  [...name.split(/[/\\]/).pop()!]
    .filter((c) => c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127)
    .join('')
    .trim() || 'file';

const createdBy = (me: { userid: string | null; musercode: string }) => me.userid ?? me.musercode;

export const fileHandlers = {
  'as.m.access.updateToOSS': async (input, ctx) => {
    const { musercode, use, filename } = input;
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    const bytes = await base64Bytes(input, 'data', (n) => checkSize(use, n));
    const row = await storeFile(ctx.db, storageOf(ctx.config), {
      musercode: owner.musercode,
      use,
      filename: displayName(filename),
      bytes,
      createdby: createdBy(ctx.me),
      now: ctx.now(),
    });
    const fileid = row.fileid;
    await ctx.audit({
      result: 'ok',
      detail: { fileid, target: owner.musercode, use, size: bytes.length },
    });
    return fileOut(row);
  },

  'as.m.access.updateToOSSPath': async ({ musercode, use, filename, size }, ctx) => {
    const owner = await ownerAccount(ctx, ctx.db, musercode);
    checkSize(use, size);
    const claimed = claimedType(use, filename);
    const key = newKey(claimed.ext);
    const fileid = newId('FL');
    const now = ctx.now();
    const expires = new Date(now.getTime() + UPLOAD_TARGET_MINUTES * 60_000);
    const [row] = await ctx.db
      .insert(storedFile)
      .values({
        fileid,
        musercode: owner.musercode,
        use,
        filename: displayName(filename),
        key,
        contenttype: claimed.contenttype,
        size,
        status: 'pending',
        createdby: createdBy(ctx.me),
        createdat: now,
      })
      .returning();
    const storage = storageOf(ctx.config);
    let upload = await storage.presignPut(key, claimed.contenttype, size, expires, now);
    if (!upload) {
      const exp = expires.getTime();
      const sig = uploadSignature(await urlSecret(ctx.db, ctx.config), fileid, size, exp);
      upload = { url: `/files/upload/${fileid}?exp=${exp}&sig=${sig}`, headers: { 'content-type': 'application/octet-stream' } };
    }
    await ctx.audit({ result: 'ok', detail: { fileid, target: owner.musercode, use, size } });
    return { file: fileOut(row!), upload: { method: 'PUT' as const, ...upload }, expiresat: iso(expires) };
  },

  'as.m.access.confirmOSSPath': async ({ fileid }, ctx) => {
    const [row] = await ctx.db
      .select()
      .from(storedFile)
      .where(and(eq(storedFile.fileid, fileid), scopeWhere(storedFile.musercode, ctx.me)));
    if (!row) noSuchFile();
    if (row!.status === 'ready') return fileOut(row!);
    const use = row!.use as keyof typeof fileLimits;
    const storage = storageOf(ctx.config);
    // On S3 the client's bytes are copied in place and checked there: its presigned URL reaches
    // only the upload's own name, so nothing it sends later, until the URL expires, changes the file.
    await storage.placeUpload(row!.key);
    const stored = await storage.head(row!.key, SNIFF_BYTES);
    if (!stored) invalid({ zh: '文件尚未上传', en: 'The file has not been uploaded yet' });
    let found;
    try {
      if (stored!.size !== row!.size)
        fileRefused(
          `大小与声明不符（${stored!.size} 字节，声明 ${row!.size} 字节）`,
          `its size (${stored!.size} bytes) is not the size declared (${row!.size} bytes)`,
        );
      checkSize(use, stored!.size);
      found = checkType(use, stored!.head);
      if (use === 'excel') {
        const whole = await storage.get(row!.key);
        const chunks: Buffer[] = [];
        for await (const c of whole!.body as AsyncIterable<Buffer>) chunks.push(c);
        await checkFile(use, Buffer.concat(chunks));
      }
    } catch (err) {
      // A file that does not fit is removed, and its record with it: nothing of it stays.
      await Promise.all([storage.delete(row!.key), storage.discardUpload(row!.key)]);
      await ctx.db.delete(storedFile).where(and(eq(storedFile.fileid, fileid), eq(storedFile.status, 'pending')));
      await ctx.audit({ result: 'fail', detail: { fileid } });
      throw err;
    }
    // Ready only if the stored object is still the one checked: an upload landing during the check
    // (it moves its bytes in under the same row lock, whilePending) makes the caller confirm again.
    let ready: FileRecord | undefined;
    let changed = false;
    await whilePending(ctx.db, fileid, async (tx) => {
      if ((await storage.version(row!.key)) !== stored!.version) {
        changed = true;
        return;
      }
      [ready] = await tx
        .update(storedFile)
        .set({ status: 'ready', contenttype: found!.contenttype })
        .where(and(eq(storedFile.fileid, fileid), eq(storedFile.status, 'pending')))
        .returning();
    });
    if (changed)
      invalid({
        zh: '文件在检查期间被再次上传，请重新确认',
        en: 'The file was uploaded again while it was being checked; please confirm again',
      });
    await ctx.audit({ result: 'ok', detail: { fileid, size: stored!.size } });
    await storage.discardUpload(row!.key);
    if (!ready) {
      const [again] = await ctx.db.select().from(storedFile).where(eq(storedFile.fileid, fileid));
      if (!again) noSuchFile();
      return fileOut(again!);
    }
    return fileOut(ready);
  },

  'as.m.access.getFilePage': async ({ musercode, use, filename, page, pageSize }, ctx) => {
    const where = and(
      ownedBy(ctx, storedFile.musercode, musercode),
      use ? eq(storedFile.use, use) : undefined,
      contains(storedFile.filename, filename),
    );
    const query = ctx.db.select().from(storedFile).where(where).$dynamic();
    const { total, rows } = await paged(ctx.db, query, [desc(storedFile.createdat), asc(storedFile.fileid)], { page, pageSize });
    const [names, uses, signed] = await Promise.all([
      accountNames(
        ctx.db,
        rows.map((r) => r.musercode),
      ),
      useCounts(
        ctx.db,
        rows.map((r) => r.fileid),
      ),
      fileUrlSigner(ctx.db, ctx.config, ctx.now()),
    ]);
    return {
      total,
      rows: rows.map((r) => ({
        ...fileOut(r),
        // Audio and video may be lesson media, served only by signed URLs (files.ts mayServeFile): staff preview them signed.
        ...(r.use === 'audio' || r.use === 'video' ? { url: signed(r.key) } : {}),
        insname: names.get(r.musercode) ?? '',
        createdby: r.createdby,
        createdat: iso(r.createdat),
        uses: uses.get(r.fileid) ?? 0,
      })),
    };
  },

  'as.m.access.deleteFile': async ({ fileid }, ctx) => {
    const [row] = await ctx.db
      .select()
      .from(storedFile)
      .where(and(eq(storedFile.fileid, fileid), scopeWhere(storedFile.musercode, ctx.me)));
    if (!row) noSuchFile();
    const inUse = () => conflict({ zh: '文件正在被内容使用，不能删除', en: 'The file is used by content and cannot be deleted' });
    if ((await useCounts(ctx.db, [fileid])).get(fileid)) inUse();
    try {
      await ctx.db.delete(storedFile).where(eq(storedFile.fileid, fileid));
    } catch (err) {
      // A use added meanwhile: the foreign key of file_use refuses the delete.
      if (isForeignKeyViolation(err)) inUse();
      throw err;
    }
    const storage = storageOf(ctx.config);
    await Promise.all([storage.delete(row!.key), storage.discardUpload(row!.key)]);
    await ctx.audit({ result: 'ok', detail: { fileid } });
    return null;
  },
} satisfies HandlerMap;

function isForeignKeyViolation(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23503') return true;
  }
  return false;
}
