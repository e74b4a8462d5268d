import { Worker } from 'node:worker_threads';
import { AppError } from './errors.js';

/**
 * JSON bodies above this size are parsed in a worker thread (issue 27 item 1): JSON.parse of 16 MB
 * holds the thread for 100 ms or more, which every other request would wait for. Only a signed-in
 * caller allowed an action with a large limit (rosters, uploads) can send one.
 */
export const OFF_THREAD_BYTES = 1024 * 1024;

/**
 * Strings longer than this (the base64 file of an upload) come back as bytes, moved rather than
 * copied, and are rebuilt here a piece at a time: handing a 16 MB string over as a structured clone,
 * or making it from its bytes in one call, holds the main thread 50 to 120 ms.
 */
const LIFT_CHARS = 64 * 1024;
/** Bytes turned into text per turn of the event loop (about 4 ms each); the pieces are joined as a rope (no copy). */
const REBUILD_BYTES = 1024 * 1024;

/** A data URL's prefix and base64 itself, as the upload handler reads them (domains/files/handlers.ts). */
export const DATA_URL_PREFIX = /^data:[a-z0-9.+/-]+;base64,/i;
export const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The worker: plain JavaScript, so it runs alike from the TypeScript sources and the build. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, bytes }) => {
  let value;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    parentPort.postMessage({ id, malformed: true });
    return;
  }
  const lifted = [];
  const moved = [];
  // Depth-first without recursion (the depth was bounded before the parse, but no stack is needed).
  const stack = [[value, []]];
  while (stack.length) {
    const [node, path] = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    for (const key of Object.keys(node)) {
      const v = node[key];
      // A long string with a NUL stays in place (the route refuses it); the others are known NUL-free.
      if (typeof v === 'string' && v.length > ${LIFT_CHARS} && !v.includes('\\u0000')) {
        const ascii = Buffer.byteLength(v, 'utf8') === v.length;
        const buf = Buffer.from(v, ascii ? 'latin1' : 'utf8');
        const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
        const one = { path: [...path, key], bytes: ab, encoding: ascii ? 'latin1' : 'utf8' };
        moved.push(ab);
        // Base64 (a data URL's prefix dropped, padding only at the end) is decoded here as well.
        const prefix = ascii ? ${DATA_URL_PREFIX}.exec(v.slice(0, 256)) : null;
        const base64 = prefix ? v.slice(prefix[0].length) : v;
        if (ascii && ${BASE64}.test(base64)) {
          const bytes = Buffer.from(base64, 'base64');
          one.decoded = bytes.buffer;
          one.decodedLength = bytes.length;
          moved.push(bytes.buffer);
        }
        lifted.push(one);
        node[key] = null;
      } else if (v !== null && typeof v === 'object') stack.push([v, [...path, key]]);
    }
  }
  parentPort.postMessage({ id, value, lifted }, moved);
});
`;

interface Lifted {
  path: string[];
  bytes: ArrayBuffer;
  encoding: 'latin1' | 'utf8';
  /** The string's bytes when it is base64: their memory and length. */
  decoded?: ArrayBuffer;
  decodedLength?: number;
}
type Answer = { id: number; malformed: true } | { id: number; malformed?: undefined; value: unknown; lifted: Lifted[] };

/**
 * The long strings the worker found free of NUL, by the object and key that hold them: the route's
 * NUL check (action-route.ts hasNul) skips them rather than scan megabytes again on this thread.
 */
export const nulFree = new WeakMap<object, Set<string>>();

/**
 * The long base64 strings the worker decoded, by the object and key that hold them: a handler takes
 * the bytes (`decodedOffThread`) and never touches the string. The string is rebuilt as a rope of
 * pieces; its first read as a whole joins them, which for a 14 MB upload held the thread 50 ms
 * and more, as did checking and decoding it here.
 */
const decoded = new WeakMap<object, Map<string, Buffer>>();

/** The bytes of `holder[key]`, a base64 string the worker checked and decoded; undefined when it did not. */
export function decodedOffThread(holder: object, key: string): Buffer | undefined {
  return decoded.get(holder)?.get(key);
}

/** The input validated from a body keeps the bytes decoded for the body's own fields (the validator makes a new object). */
export function keepDecoded(body: unknown, input: unknown): void {
  const bytes = body !== null && typeof body === 'object' ? decoded.get(body) : undefined;
  if (bytes && input !== null && typeof input === 'object') decoded.set(input, bytes);
}

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();

const malformed = () => new AppError('validation', { zh: '请求格式有误', en: 'The request is malformed' }, 400);

function theWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 512 } });
  // Idle, it keeps no process alive.
  w.unref();
  w.on('message', (answer: Answer) => {
    const job = waiting.get(answer.id);
    if (!job) return;
    waiting.delete(answer.id);
    if (answer.malformed) job.reject(malformed());
    else restore(answer.value, answer.lifted).then(job.resolve, job.reject);
  });
  const fail = (err: unknown) => {
    if (worker === w) worker = null;
    for (const job of waiting.values()) job.reject(err instanceof AppError ? err : new AppError('internal', undefined, 500));
    waiting.clear();
  };
  w.on('error', fail);
  w.on('exit', () => fail(new AppError('internal', undefined, 500)));
  worker = w;
  return w;
}

/** Puts the long strings back where they were (as own properties, whatever their key). */
async function restore(value: unknown, lifted: Lifted[]): Promise<unknown> {
  for (const one of lifted) {
    let node = value as Record<string, unknown>;
    for (const key of one.path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    const text = await rebuild(Buffer.from(one.bytes), one.encoding);
    const key = one.path[one.path.length - 1]!;
    Object.defineProperty(node, key, { value: text, writable: true, enumerable: true, configurable: true });
    const keys = nulFree.get(node) ?? new Set<string>();
    nulFree.set(node, keys.add(key));
    if (one.decoded) {
      const bytes = decoded.get(node) ?? new Map<string, Buffer>();
      decoded.set(node, bytes.set(key, Buffer.from(one.decoded, 0, one.decodedLength)));
    }
  }
  return value;
}

/**
 * A string from its bytes, a piece per turn of the event loop. UTF-8 pieces end on a character
 * boundary (never before a continuation byte); latin1 has one byte a character.
 */
async function rebuild(buf: Buffer, encoding: 'latin1' | 'utf8'): Promise<string> {
  let text = '';
  for (let at = 0; at < buf.length;) {
    let end = Math.min(buf.length, at + REBUILD_BYTES);
    if (encoding === 'utf8') while (end < buf.length && (buf[end]! & 0xc0) === 0x80) end++;
    text += buf.toString(encoding, at, end);
    at = end;
    if (at < buf.length) await new Promise<void>((r) => setImmediate(r));
  }
  return text;
}

/** Parses JSON bytes in the worker; a malformed body answers 400. The bytes are moved, not copied. */
export function parseJsonOffThread(body: Buffer): Promise<unknown> {
  const w = theWorker();
  const id = nextId++;
  // The body's own memory (a fresh Buffer.concat, or a slice we copy once) is moved to the worker.
  const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : Buffer.from(body);
  const bytes = own.buffer as ArrayBuffer;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    if (waiting.size === 1) w.ref();
    w.postMessage({ id, bytes }, [bytes]);
  }).finally(() => {
    if (waiting.size === 0) worker?.unref();
  });
}
