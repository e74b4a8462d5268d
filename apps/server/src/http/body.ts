import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseQuery } from 'node:querystring';
import { AppError } from './errors.js';
import { parseJsonOffThread, OFF_THREAD_BYTES } from './json-worker.js';

/**
 * Request bodies (issue 27 item 1). Nothing is read before the route has decided how much it may read
 * (`setBodyLimit`, from the action route's onRequest hook: after the token is authenticated and the
 * action's code checked); a request it never decided for gets the small limit (PREAUTH_BODY_LIMIT_BYTES).
 * A declared length over the limit is refused before any byte is read; a body without one is counted
 * as it arrives and refused the moment it passes the limit, so an unauthenticated client can make the
 * server read at most the small limit. JSON nesting is bounded while the bytes arrive (a scan without
 * recursion), so a deep body is refused before any parse; bodies above OFF_THREAD_BYTES (only a
 * signed-in caller allowed a large action can send one) are parsed in a worker thread.
 */

/** Deeper JSON than any input of the catalogue needs (its deepest is under 10 levels). */
export const MAX_JSON_DEPTH = 64;
/**
 * Values (brackets, commas and colons outside strings) a body may hold: far above any input of the
 * catalogue (its largest arrays hold 5,000 items of a few fields), far below what would make parsing
 * and handing over a large body cost the event loop (16 MB of `[0,0,…]` is 8 million values).
 */
export const MAX_JSON_VALUES = 500_000;

const bodyLimit = Symbol('bodyLimit');
declare module 'fastify' {
  interface FastifyRequest {
    [bodyLimit]?: number;
  }
}

/** How much of this request's body may be read (the action route sets it once it knows the caller). */
export function setBodyLimit(req: FastifyRequest, bytes: number) {
  req[bodyLimit] = bytes;
}

export const tooLarge = () => new AppError('validation', { zh: '请求内容过大', en: 'The request body is too large' }, 413);
export const tooDeep = () => new AppError('validation', { zh: '请求内容嵌套过深', en: 'The request is nested too deeply' }, 400);
export const tooMany = () => new AppError('validation', { zh: '请求内容包含的数据项过多', en: 'The request holds too many values' }, 400);
export const malformed = () => new AppError('validation', { zh: '请求格式有误', en: 'The request is malformed' }, 400);

/**
 * Scans JSON text as it arrives and throws once nesting passes MAX_JSON_DEPTH or values pass
 * MAX_JSON_VALUES: a byte loop with three counters, no recursion, no parse. Multi-byte UTF-8
 * sequences never contain the ASCII bytes it looks for, so chunks may split characters anywhere.
 */
export class JsonScan {
  private depth = 0;
  private values = 0;
  private inString = false;
  private escaped = false;
  constructor(
    private readonly maxDepth = MAX_JSON_DEPTH,
    private readonly maxValues = MAX_JSON_VALUES,
  ) {}

  feed(chunk: Uint8Array | string) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let { depth, values, inString, escaped } = this;
    for (let i = 0; i < bytes.length; i++) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        // Inside a string only a quote or a backslash matters: jump to the next one (a native
        // search), so the megabytes of an upload's base64 field cost no loop turn per byte.
        const quote = bytes.indexOf(0x22, i);
        const end = quote === -1 ? bytes.length : quote;
        const slash = bytes.subarray(i, end).indexOf(0x5c);
        const next = slash !== -1 ? i + slash : quote;
        if (next === -1) break;
        i = next;
        if (bytes[i] === 0x5c) escaped = true;
        else inString = false;
        continue;
      }
      const b = bytes[i]!;
      if (b === 0x22) inString = true;
      else if (b === 0x5b || b === 0x7b) {
        if (++depth > this.maxDepth) throw tooDeep();
        values++;
      } else if (b === 0x5d || b === 0x7d) depth--;
      else if (b === 0x2c || b === 0x3a) values++;
    }
    if (values > this.maxValues) throw tooMany();
    Object.assign(this, { depth, values, inString, escaped });
  }
}

/** Throws when JSON text nests too deeply or holds too many values (the payload field of a form). */
export function checkJsonShape(text: string) {
  new JsonScan().feed(text);
}

/**
 * Reads a body up to `limit` bytes, feeding each chunk to `scan`; throws 413 past the limit, without
 * reading further. Listeners are removed on the way out: what the client still sends is discarded by
 * Node once the answer is written, never buffered.
 */
function readLimited(req: FastifyRequest, payload: NodeJS.ReadableStream, limit: number, scan?: JsonScan): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    stopReading(payload);
    return Promise.reject(tooLarge());
  }
  // A body to be parsed off the thread (only a signed-in caller allowed a large action may send one)
  // is copied into its place as it arrives: joining it at the end (14 MB for an upload) held the
  // thread 50 ms, most of it touching fresh memory. Its own memory, so it is moved to the worker.
  const whole = Number.isFinite(declared) && declared > OFF_THREAD_BYTES ? Buffer.allocUnsafeSlow(declared) : null;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (err?: unknown) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      if (err) {
        stopReading(payload);
        reject(err);
      }
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return stop(tooLarge());
      try {
        scan?.feed(chunk);
      } catch (err) {
        return stop(err);
      }
      if (!whole) chunks.push(chunk);
      // Node's parser never gives more than the declared length; were it to, nothing is cut silently.
      else if (received > whole.length) return stop(malformed());
      else chunk.copy(whole, received - chunk.length);
    };
    const onEnd = () => {
      stop();
      if (whole) resolve(received === whole.length ? whole : whole.subarray(0, received));
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onError = (err: Error) => stop(Object.assign(err, { statusCode: 400 }));
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}

/**
 * Reads no more of a refused body. Paused and marked as being consumed (read(0)), Node neither reads
 * nor drains the rest: the answer is written at once, and the connection, which cannot carry another
 * request while the unread body is in the way, is closed by the keep-alive timeout (5 s).
 */
function stopReading(payload: NodeJS.ReadableStream) {
  payload.pause();
  (payload as NodeJS.ReadableStream & { read(n: number): unknown }).read(0);
}

const limitOf = (req: FastifyRequest, fallback: number) => req[bodyLimit] ?? fallback;

/**
 * The JSON and form parsers of the whole server (every route without its own), reading with the
 * limit the route decided, the small one otherwise.
 */
export function registerBodyParsers(app: FastifyInstance, smallLimit: number) {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser('application/json', (req, payload, done) => {
    const scan = new JsonScan();
    readLimited(req, payload, limitOf(req, smallLimit), scan)
      .then(async (bytes) => {
        if (bytes.length === 0) return done(null, undefined);
        if (bytes.length > OFF_THREAD_BYTES) return done(null, await parseJsonOffThread(bytes));
        try {
          return done(null, JSON.parse(bytes.toString('utf8')));
        } catch {
          throw malformed();
        }
      })
      .catch((err: Error) => done(err, undefined));
  });
  // A form (downloads, SPEC §7) may carry its token in a field, so it is read before anyone is known:
  // always the small limit. Its JSON field is checked when the route reads it (checkJsonShape).
  app.addContentTypeParser('application/x-www-form-urlencoded', (req, payload, done) => {
    readLimited(req, payload, smallLimit)
      .then((bytes) => done(null, parseQuery(bytes.toString('utf8'))))
      .catch((err: Error) => done(err, undefined));
  });
}
