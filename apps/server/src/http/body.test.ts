import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../test/harness.js';
import { md5Upper } from '../domains/auth/passwords.js';
import { PNG } from '../test/images.js';
import { bufferCalls } from '../test/buffer-calls.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const SMALL = 64 * KiB;

/**
 * A body produced only as the server reads it (16 KiB a chunk, as a slow network would give it):
 * `produced` tells how much of it the server had asked for, `ended` whether it read it all.
 * `hold` (optional) stops producing after that many bytes until `release()` is called.
 */
function lazyBody(total: number, piece: (offset: number) => string, hold?: number) {
  const chunk = 16 * KiB;
  let released = hold === undefined;
  let waiting: (() => void) | null = null;
  let started!: () => void;
  const state = {
    produced: 0,
    /** Resolves once the server has taken the first bytes. */
    first: new Promise<void>((r) => (started = r)),
    ended: false,
    release() {
      released = true;
      waiting?.();
      waiting = null;
    },
    stream: null as unknown as Readable,
  };
  const produce = (stream: Readable) => {
    if (state.produced >= total) {
      state.ended = true;
      stream.push(null);
      return;
    }
    if (!released && state.produced >= hold!) {
      // Nothing pushed: the stream waits in 'reading' until release() pushes the next chunk.
      waiting = () => produce(stream);
      return;
    }
    const n = Math.min(chunk, total - state.produced);
    const text = piece(state.produced)
      .repeat(Math.ceil(n / piece(state.produced).length))
      .slice(0, n);
    state.produced += n;
    stream.push(text);
    started();
  };
  state.stream = new Readable({
    highWaterMark: chunk,
    read() {
      produce(this);
    },
  });
  return state;
}

const nested = () => '[';
/** Nested 60 deep (within the depth bound), then values: only its size can refuse it. */
const nestedThenValues = (offset: number) => (offset === 0 ? '['.repeat(60) + '0,'.repeat(8192) : '0,');
const post = (s: TestServer, name: string, payload: Readable | string, headers: Record<string, string> = {}, ip = '127.0.0.1') =>
  s.app.inject({
    method: 'POST',
    url: `/api/${name}/1.0.0/action`,
    payload,
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', ...headers },
  });

describe.each(engines())('request bodies before and after authentication on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let teacher: string;
  beforeAll(async () => {
    s = await startTestServer(engine, { config: { loginPerMinutePerAddress: 3 } });
    school = (await s.login('school', undefined, '10.0.0.1')).token;
    teacher = (await s.login('teacher', undefined, '10.0.0.1')).token;
  });
  afterAll(() => s?.close());

  it('refuses an unauthenticated 11 MiB nested body to a large-upload action with 413 after reading at most the small limit', async () => {
    // (A body deeper than the bound is refused sooner still, for its depth: see below.)
    const body = lazyBody(11 * MiB, nestedThenValues);
    const res = await post(s, 'as.m.access.updateToOSS', body.stream);
    expect(res.statusCode).toBe(413);
    expect(res.json().errorCode).toBe(ErrorCode.validation);
    expect(body.ended).toBe(false);
    expect(body.produced).toBeLessThanOrEqual(SMALL + 64 * KiB);
    body.stream.destroy();
  });

  it('refuses a declared length over the small limit before reading any of it', async () => {
    const body = lazyBody(11 * MiB, nested, 0);
    const res = await post(s, 'as.m.access.updateToOSS', body.stream, { 'content-length': String(11 * MiB) });
    expect(res.statusCode).toBe(413);
    expect(body.produced).toBe(0);
    body.stream.destroy();
  });

  it('gives a signed-in caller without the action’s code the small limit, and one holding it the action’s own', async () => {
    const data = Buffer.alloc(96 * KiB, 7).toString('base64');
    const body = JSON.stringify({ use: 'image', filename: 'a.png', data });
    expect(body.length).toBeGreaterThan(SMALL);
    // The teacher's counsellor role holds none of the upload codes: a small body is denied, a large one never read.
    expect((await s.call('as.m.access.updateToOSS', { use: 'image', filename: 'a.png', data: 'AAAA' }, teacher)).errorCode).toBe(
      ErrorCode.permissionDenied,
    );
    const denied = await post(s, 'as.m.access.updateToOSS', body, { token: teacher });
    expect(denied.statusCode).toBe(413);
    // No token at all: the same.
    expect((await post(s, 'as.m.access.updateToOSS', body)).statusCode).toBe(413);
    // The school holds 00030: its body is read and judged by the action (not an image).
    const allowed = await post(s, 'as.m.access.updateToOSS', body, { token: school });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().errorCode).not.toBe(0);
    expect(allowed.json().errorMsg).not.toMatch(/过大|too large/);
  });

  it('parses an allowed body over 1 MiB off the event loop and still refuses a NUL in its long strings', async () => {
    const data = Buffer.alloc(1200 * KiB, 7).toString('base64');
    const ok = await post(s, 'as.m.access.updateToOSS', JSON.stringify({ use: 'image', filename: 'a.png', data }), { token: school, 'accept-language': 'en-US' });
    expect(ok.statusCode).toBe(200);
    // Read, parsed and judged by the action: not an image (neither malformed nor an invalid character).
    expect(ok.json().errorMsg).not.toMatch(/malformed|invalid character|too large/);
    const nul = await post(s, 'as.m.access.updateToOSS', JSON.stringify({ use: 'image', filename: 'a.png', data: data + '\u0000' }), {
      token: school,
      'accept-language': 'en-US',
    });
    expect(nul.json()).toMatchObject({ errorCode: ErrorCode.validation, errorMsg: 'The input contains an invalid character' });
  });

  it('copies a large body into place as its pieces arrive, never joining them at the end', async () => {
    const file = Buffer.concat([PNG, Buffer.alloc(1200 * KiB, 7)]);
    const text = JSON.stringify({ use: 'image', filename: 'a.png', data: file.toString('base64') });
    const body = lazyBody(text.length, (offset) => text.slice(offset, offset + 16 * KiB));
    const { result: res, sizes: joined } = await bufferCalls('concat', MiB, () =>
      post(s, 'as.m.access.updateToOSS', body.stream, { token: school, 'content-length': String(text.length) }),
    );
    expect(body.ended).toBe(true);
    expect(joined).toEqual([]);
    expect(res.json()).toMatchObject({ errorCode: 0, data: { size: file.length } });
    expect((await s.app.inject({ method: 'GET', url: res.json().data.url })).rawPayload).toEqual(file);
  });

  it('refuses 100,000 levels of nesting with 400 in the caller’s language, signed in or not', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const zh = await post(s, 'as.m.system.ping', deep, { token: school });
    expect(zh.statusCode).toBe(400);
    expect(zh.json()).toEqual({ errorCode: ErrorCode.validation, errorMsg: '请求内容嵌套过深', data: null });
    const en = await post(s, 'as.m.system.ping', deep, { token: school, 'accept-language': 'en-US' });
    expect(en.statusCode).toBe(400);
    expect(en.json().errorMsg).toBe('The request is nested too deeply');
    // Unauthenticated, within the small limit: refused for its depth all the same (objects too).
    const objects = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    const anon = await post(s, 'as.m.user.login', objects, { 'accept-language': 'en-US' });
    expect(anon.statusCode).toBe(400);
    expect(anon.json().errorMsg).toBe('The request is nested too deeply');
    // Brackets inside strings are text, not nesting.
    const text = await post(s, 'as.m.user.login', JSON.stringify({ username: '['.repeat(40), pwd: md5Upper('x') }));
    expect(text.statusCode).toBe(200);
    expect(text.json().errorCode).toBe(ErrorCode.wrongCredentials);
  });

  it('refuses deep nesting in the payload field of a form post (downloads)', async () => {
    const payload = '['.repeat(1000) + ']'.repeat(1000);
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/as.m.system.ping/1.0.0/action',
      payload: new URLSearchParams({ token: school, payload }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errorMsg).toBe('The request is nested too deeply');
    // A form carries its token in a field: it is small whoever sends it.
    const big = await s.app.inject({
      method: 'POST',
      url: '/api/as.m.system.ping/1.0.0/action',
      payload: new URLSearchParams({ token: school, payload: JSON.stringify({ x: 'a'.repeat(SMALL) }) }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(big.statusCode).toBe(413);
    const ok = await s.app.inject({
      method: 'POST',
      url: '/api/as.m.system.ping/1.0.0/action',
      payload: new URLSearchParams({ token: school, payload: '{}' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(ok.json().errorCode).toBe(0);
  });

  it('applies the sign-in rate limit before reading the body', async () => {
    const ip = '10.9.9.9';
    for (let i = 0; i < 3; i++)
      expect(
        (await s.call('as.m.user.login', { username: 'nobody', pwd: md5Upper('x') }, undefined, { 'x-test-ip': ip })).errorCode,
      ).not.toBe(ErrorCode.rateLimited);
    const body = lazyBody(MiB, () => '{"username":"' + 'a'.repeat(64));
    const res = await post(s, 'as.m.user.login', body.stream, {}, ip);
    expect(res.statusCode).toBe(429);
    expect(body.produced).toBeLessThanOrEqual(16 * KiB);
    body.stream.destroy();
    // Another address is not limited.
    expect(
      (await s.call('as.m.user.login', { username: 'nobody', pwd: md5Upper('x') }, undefined, { 'x-test-ip': '10.9.9.10' })).errorCode,
    ).toBe(ErrorCode.wrongCredentials);
  });

  it('gives a respondent token the respondent limit (a consent signature), and no token the small one', async () => {
    const signature = 'data:image/png;base64,' + Buffer.alloc(150 * KiB, 1).toString('base64');
    const body = JSON.stringify({ signature });
    expect(body.length).toBeGreaterThan(SMALL);
    expect((await post(s, 'as.c.exam.sign', body)).statusCode).toBe(413);
    expect((await post(s, 'as.c.exam.sign', body, { token: 'not-a-respondent-token' })).statusCode).toBe(413);
    // A staff token is no respondent token.
    expect((await post(s, 'as.c.exam.sign', body, { token: school })).statusCode).toBe(413);
  });

  it('answers another caller while unauthenticated nested bodies arrive, before any of them has been read whole (ordering only)', async () => {
    const floods = Array.from({ length: 4 }, () => lazyBody(11 * MiB, nestedThenValues, 32 * KiB));
    const events: string[] = [];
    const answered = floods.map((f, i) =>
      post(s, 'as.m.access.updateToOSS', f.stream, {}, `10.1.0.${i}`).then((res) => {
        events.push(`flood ${i} ${res.statusCode}${f.ended ? ' after reading it whole' : ''}`);
        return res;
      }),
    );
    // Every flood has started (its first bytes are in): the ping goes while they are held there.
    await Promise.all(floods.map((f) => f.first));
    const ping = s.call('as.m.system.ping', {}, school).then((res) => {
      events.push(`ping ${res.errorCode}`);
      return res;
    });
    // The floods go on only once the ping has been answered.
    await ping;
    for (const f of floods) f.release();
    await Promise.all(answered);
    for (const f of floods) f.stream.destroy();
    expect(events[0]).toBe('ping 0');
    expect(events.slice(1).sort()).toEqual(floods.map((_f, i) => `flood ${i} 413`));
  });
});

describe('parsing large bodies off the event loop', () => {
  it('gives the same value as JSON.parse, long strings (ASCII and UTF-8) and odd keys included', async () => {
    const { parseJsonOffThread, decodedOffThread } = await import('./json-worker.js');
    const value = {
      data: Buffer.alloc(1536 * KiB, 7).toString('base64'),
      nested: { list: [1, 'two', { text: '测评'.repeat(300 * KiB) + 'é'.repeat(3) }], empty: '' },
      ['__proto__']: { polluted: true },
    };
    const text = JSON.stringify(value).replace('"__proto__":{"polluted":true}', '"__proto__":{"polluted":"' + 'p'.repeat(70 * KiB) + '"}');
    const parsed = (await parseJsonOffThread(Buffer.from(text))) as Record<string, unknown>;
    expect(parsed).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // The base64 string came with its bytes, decoded in the worker; the text that is not base64 did not.
    expect(decodedOffThread(parsed, 'data')).toEqual(Buffer.alloc(1536 * KiB, 7));
    const list = (parsed.nested as { list: Record<string, unknown>[] }).list;
    expect(decodedOffThread(list[2]!, 'text')).toBeUndefined();
    await expect(parseJsonOffThread(Buffer.from('{"a": [1, 2'))).rejects.toMatchObject({ httpStatus: 400 });
  });
});

describe('the streaming JSON scan', () => {
  it('counts nesting outside strings only, across chunk boundaries and escapes', async () => {
    const { JsonScan } = await import('./body.js');
    const text = '{"a":"x\\"[[[[{{\\\\","b":[[1]],"c":"\\\\\\"]]]"}';
    expect(() => JSON.parse(text)).not.toThrow();
    for (const size of [1, 2, 3, 7, text.length]) {
      const scan = new JsonScan(3);
      for (let i = 0; i < text.length; i += size) scan.feed(text.slice(i, i + size));
    }
    const deep = new JsonScan(3);
    expect(() => deep.feed('{"a":[[[1]]]}')).toThrow(/nested too deeply/);
    const many = new JsonScan(64, 10);
    expect(() => many.feed(`[${'1,'.repeat(20)}1]`)).toThrow(/too many values/);
  });
});
