import { invalid } from '../../http/errors.js';
import { BASE64, DATA_URL_PREFIX, decodedOffThread } from '../../http/json-worker.js';

/** Base64 checked and decoded this many characters at a time (a multiple of 4), yielding between. */
const DECODE_STEP = 1024 * 1024;

const notBase64 = () => invalid({ zh: '文件内容不是有效的 base64', en: 'The file data is not valid base64' });

/**
 * The bytes of a file carried in an action's input as base64 (`input[key]`; an upload's data URL,
 * an import's content). `check` sees their length before any decoding here, to refuse a file too large.
 *
 * A body large enough to be parsed off the event loop had its base64 checked and decoded there
 * too (http/json-worker.ts): those bytes are taken and the string is never read, since its first
 * read joins the pieces it was rebuilt from (50 ms and more for 14 MB). Otherwise the base64 is
 * checked and decoded here a megabyte at a time with a turn of the event loop between (issue 27
 * item 1): in one piece, the check and the decode held every other request for 40 to 240 ms.
 * Base64 broken into lines (as mail writes it) is read here too.
 */
export async function base64Bytes<K extends string>(
  input: Record<K, string>,
  key: K,
  check: (bytes: number) => void = () => {},
): Promise<Buffer> {
  const ready = decodedOffThread(input, key);
  if (ready) {
    check(ready.length);
    return ready;
  }
  const text = input[key].replace(DATA_URL_PREFIX, '').replace(/[\r\n]/g, '');
  check(Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0));
  const parts: Buffer[] = [];
  for (let at = 0; ; at += DECODE_STEP) {
    const piece = text.slice(at, at + DECODE_STEP);
    const last = at + DECODE_STEP >= text.length;
    // Padding only at the very end.
    if (!BASE64.test(piece) || (!last && piece.endsWith('='))) notBase64();
    parts.push(Buffer.from(piece, 'base64'));
    if (last) break;
    await new Promise<void>((r) => setImmediate(r));
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
