import { fileLimits, fileTypes, type FileUse } from '@xinli/contract';
import { AppError } from '../../http/errors.js';
import { readSheetRows } from './reader.js';

/**
 * The guarded reader of uploaded files of the file store (images, audio, video, PDF, Excel): a file
 * is judged by its first bytes (its "magic"), never by its name or the type a client claims, and
 * against the allow-list and size limit of the use it is uploaded for. Excel workbooks are then read
 * whole by the guarded spreadsheet reader (reader.ts), so a zip bomb or a zip that is not a workbook
 * is refused like an import. SVG, HTML and anything else that a browser could run are not on any list.
 */

/** Bytes of a file's start that sniffType reads. */
export const SNIFF_BYTES = 64;

export interface Sniffed {
  contenttype: string;
  ext: string;
}

const ascii = (b: Buffer, at: number, s: string) => b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;
const bytes = (b: Buffer, at: number, list: number[]) => b.length >= at + list.length && list.every((x, i) => b[at + i] === x);

/** The ISO base media brands (the `ftyp` box) of audio-only files. */
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ']);

/** The type of a file from its first bytes, or null when it is none we accept anywhere. */
export function sniffType(head: Buffer): Sniffed | null {
  if (bytes(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contenttype: 'image/png', ext: 'png' };
  if (bytes(head, 0, [0xff, 0xd8, 0xff])) return { contenttype: 'image/jpeg', ext: 'jpg' };
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return { contenttype: 'image/gif', ext: 'gif' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return { contenttype: 'image/webp', ext: 'webp' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return { contenttype: 'audio/wav', ext: 'wav' };
  if (ascii(head, 0, 'OggS')) return { contenttype: 'audio/ogg', ext: 'ogg' };
  if (ascii(head, 0, 'ID3') || (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe6) === 0xe2))
    return { contenttype: 'audio/mpeg', ext: 'mp3' };
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xf6) === 0xf0) return { contenttype: 'audio/aac', ext: 'aac' };
  if (ascii(head, 4, 'ftyp')) {
    const brand = head.toString('latin1', 8, 12);
    return AUDIO_BRANDS.has(brand) ? { contenttype: 'audio/mp4', ext: 'm4a' } : { contenttype: 'video/mp4', ext: 'mp4' };
  }
  if (bytes(head, 0, [0x1a, 0x45, 0xdf, 0xa3])) return { contenttype: 'video/webm', ext: 'webm' };
  if (ascii(head, 0, '%PDF-')) return { contenttype: 'application/pdf', ext: 'pdf' };
  if (bytes(head, 0, [0x50, 0x4b, 0x03, 0x04]))
    return { contenttype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx' };
  return null;
}

const useNames: Record<FileUse, { zh: string; en: string }> = {
  image: { zh: '图片（PNG、JPEG、GIF、WebP）', en: 'an image (PNG, JPEG, GIF, WebP)' },
  audio: { zh: '音频（MP3、M4A、WAV、OGG、AAC）', en: 'audio (MP3, M4A, WAV, OGG, AAC)' },
  video: { zh: '视频（MP4、WebM）', en: 'a video (MP4, WebM)' },
  pdf: { zh: 'PDF 文件', en: 'a PDF file' },
  excel: { zh: 'Excel（.xlsx）文件', en: 'an Excel (.xlsx) file' },
};

const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/** A refused file: HTTP 200 with the validation code, like every business refusal. */
export const fileRefused = (zh: string, en: string): never => {
  throw new AppError('validation', { zh: `文件未接受：${zh}`, en: `The file was not accepted: ${en}` });
};

export function checkSize(use: FileUse, size: number) {
  if (size > fileLimits[use])
    fileRefused(`文件过大（${mb(size)}，上限 ${mb(fileLimits[use])}）`, `it is too large (${mb(size)}; at most ${mb(fileLimits[use])})`);
  if (size < 1) fileRefused('文件为空', 'it is empty');
}

/** The type of a file's first bytes, if the use allows it; otherwise a refusal naming what the use takes. */
export function checkType(use: FileUse, head: Buffer): Sniffed {
  const found = sniffType(head);
  if (!found || !fileTypes[use].includes(found.contenttype))
    fileRefused(`内容不是${useNames[use].zh}`, `its content is not ${useNames[use].en}`);
  return found!;
}

/**
 * A whole file checked for a use: size, type by content, and for Excel a full read by the guarded
 * spreadsheet reader (limits before inflating, in a worker).
 */
export async function checkFile(use: FileUse, body: Buffer): Promise<Sniffed> {
  checkSize(use, body.length);
  const found = checkType(use, body.subarray(0, SNIFF_BYTES));
  if (use === 'excel') await readSheetRows(body, { sheets: 'first', limits: { maxFileBytes: fileLimits.excel } });
  return found;
}
