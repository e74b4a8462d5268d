import { invalid } from '../../http/errors.js';

/**
 * The guarded reader of small uploaded pictures (consent signatures): a PNG sent as base64 or a
 * data URL. Judged before anything else: the encoded length, then the PNG signature and its
 * header chunk (IHDR) with the picture's size. Nothing is decoded beyond the header; the bytes
 * are stored as they came and only ever served back as an image.
 */
export const MAX_PNG_BYTES = 200 * 1024;
const MAX_SIDE = 4000;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const refused = (zh: string, en: string): never => invalid({ zh: `签名图片无效：${zh}`, en: `The signature picture is not valid: ${en}` });

export function readPngUpload(data: string, maxBytes = MAX_PNG_BYTES): Buffer {
  const base64 = data.startsWith('data:image/png;base64,') ? data.slice('data:image/png;base64,'.length) : data;
  if (Math.floor((base64.length * 3) / 4) > maxBytes + 2) refused(`超过 ${Math.round(maxBytes / 1024)} KB`, `larger than ${Math.round(maxBytes / 1024)} KB`);
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > maxBytes) refused(`超过 ${Math.round(maxBytes / 1024)} KB`, `larger than ${Math.round(maxBytes / 1024)} KB`);
  if (bytes.length < 33 || !bytes.subarray(0, 8).equals(SIGNATURE) || bytes.toString('latin1', 12, 16) !== 'IHDR') refused('不是 PNG 图片', 'not a PNG image');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) refused('尺寸不合理', 'unreasonable size');
  return bytes;
}
