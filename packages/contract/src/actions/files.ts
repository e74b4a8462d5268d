import { z } from 'zod';
import { action, base64File, codes, idString, pageFields, pageOf, requiredText, text } from '../catalogue-kit.js';

/**
 * File storage (SPEC §7 "Upload": as.m.access.updateToOSS, updateToOSSPath; the file upload page
 * fileUpload 00030). A file is uploaded for one use, and its content (not its name) must be of a
 * type that use allows; it is stored under a generated key and served from `/files/<key>` with the
 * type found, a Content-Disposition and `nosniff`, never as HTML.
 */
export const fileUses = ['image', 'audio', 'video', 'pdf', 'excel'] as const;
export type FileUse = (typeof fileUses)[number];
export const fileUse = z.enum(fileUses);

const MiB = 1024 * 1024;
/** The largest file of each use, in bytes. */
export const fileLimits: Record<FileUse, number> = {
  image: 5 * MiB,
  audio: 30 * MiB,
  video: 200 * MiB,
  pdf: 20 * MiB,
  excel: 10 * MiB,
};
/** Files up to this size may travel in the body of updateToOSS (base64); larger ones use updateToOSSPath. */
export const DIRECT_UPLOAD_MAX_BYTES = 10 * MiB;
const DIRECT_UPLOAD_MAX_BASE64 = Math.ceil(DIRECT_UPLOAD_MAX_BYTES / 3) * 4;

/** The content types each use accepts (judged from the file's first bytes). */
export const fileTypes: Record<FileUse, string[]> = {
  image: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'],
  audio: ['audio/mpeg', 'audio/mp4', 'audio/wav', 'audio/ogg', 'audio/aac'],
  video: ['video/mp4', 'video/webm'],
  pdf: ['application/pdf'],
  excel: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
};

/** Every page that uploads files (their covers, audio, video, attachments) may upload. */
export const UPLOAD_ACCESS = codes('00030', '00026', '00028', '00039', '00050');

export const storedFile = z.object({
  fileid: z.string(),
  musercode: z.string(),
  use: fileUse,
  /** The name it was uploaded under (shown only; never a path). */
  filename: z.string(),
  contenttype: z.string(),
  size: z.int(),
  /** The generated storage key, and where the file is served: `/files/<key>`. */
  key: z.string(),
  url: z.string(),
  /** pending: a signed upload target was given and the upload is not confirmed yet. */
  status: z.enum(['pending', 'ready']),
});
export type StoredFile = z.infer<typeof storedFile>;

export const fileRow = storedFile.extend({
  insname: z.string(),
  createdby: z.string(),
  createdat: z.string(),
  /** How many pieces of content use it; a file in use cannot be deleted. */
  uses: z.int(),
});
export type FileRow = z.infer<typeof fileRow>;

/** The name the file had on the uploader's machine; only its last path segment is kept. */
const filename = requiredText(200);

export const fileActions = {
  'as.m.access.updateToOSS': action({
    access: UPLOAD_ACCESS,
    kind: 'json',
    op: 'write',
    summary: `Upload a file of one use (image, audio, video, pdf, excel; up to ${DIRECT_UPLOAD_MAX_BYTES / MiB} MiB, base64 in the body) for the caller or an institution in scope. Its content must be of a type the use allows and within the use's size limit; answers the stored file with its generated key and URL.`,
    input: z.strictObject({
      musercode: idString.optional(),
      use: fileUse,
      filename,
      data: base64File(DIRECT_UPLOAD_MAX_BASE64 + 64),
    }),
    output: storedFile,
    ids: { musercode: 'muser' },
    maxBodyBytes: DIRECT_UPLOAD_MAX_BASE64 + 4096,
  }),
  'as.m.access.updateToOSSPath': action({
    access: UPLOAD_ACCESS,
    kind: 'json',
    op: 'write',
    summary:
      'A signed upload target for a large file (a PUT of exactly `size` bytes to `upload.url` with `upload.headers`, valid until `expiresat`): a presigned object-store URL, or on disk storage a signed URL of this server. The file is pending until as.m.access.confirmOSSPath has checked its content.',
    input: z.strictObject({ musercode: idString.optional(), use: fileUse, filename, size: z.int().min(1).max(fileLimits.video) }),
    output: z.object({
      file: storedFile,
      upload: z.object({ method: z.literal('PUT'), url: z.string(), headers: z.record(z.string(), z.string()) }),
      expiresat: z.string(),
    }),
    ids: { musercode: 'muser' },
  }),
  'as.m.access.confirmOSSPath': action({
    access: UPLOAD_ACCESS,
    kind: 'json',
    op: 'write',
    summary:
      'Check a file uploaded to its signed target: its size and content type must fit its use; then it is ready. A file that does not fit is removed and refused.',
    input: z.strictObject({ fileid: idString }),
    output: storedFile,
    ids: { fileid: 'file' },
  }),
  'as.m.access.getFilePage': action({
    access: codes('00030'),
    kind: 'json',
    op: 'list',
    summary:
      'Files of the caller’s institutions (or of one musercode), newest first; filter by use and name; each with how many pieces of content use it.',
    input: z.strictObject({ musercode: idString.optional(), use: fileUse.optional(), filename: text(200).optional(), ...pageFields }),
    output: pageOf(fileRow),
    ids: { musercode: 'muser' },
  }),
  'as.m.access.deleteFile': action({
    access: codes('00030'),
    kind: 'json',
    op: 'write',
    summary: 'Delete a file in scope; refused (conflict) while content uses it.',
    input: z.strictObject({ fileid: idString }),
    output: z.null(),
    ids: { fileid: 'file' },
  }),
};
