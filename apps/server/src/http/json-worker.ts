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
        lifted.push({ path: [...path, key], bytes: ab, encoding: ascii ? 'latin1' : 'utf8' });
        moved.push(ab);
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
}
type Answer = { id: number; malformed: true } | { id: number; malformed?: undefined; value: unknown; lifted: Lifted[] };

/**
 * The long strings the worker found free of NUL, by the object and key that hold them: the route's
 * NUL check (action-route.ts hasNul) skips them rather than scan megabytes again on this thread.
 */
export const nulFree = new WeakMap<object, Set<string>>();

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
  for (const { path, bytes, encoding } of lifted) {
    let node = value as Record<string, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    const text = await rebuild(Buffer.from(bytes), encoding);
    const key = path[path.length - 1]!;
    Object.defineProperty(node, key, { value: text, writable: true, enumerable: true, configurable: true });
    const keys = nulFree.get(node) ?? new Set<string>();
    nulFree.set(node, keys.add(key));
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
