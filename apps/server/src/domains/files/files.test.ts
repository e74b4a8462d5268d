import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { ErrorCode, fileLimits } from '@xinli/contract';
import { engines, startTestServer, type Engine, type TestServer } from '../../test/harness.js';
import { startS3Server } from '../../test/s3.js';
import type { Config } from '../../config.js';
import { toneWav } from '../../kit/upload/wav.js';
import { setFileUses } from './files.js';
import { storedFile } from './tables.js';
import { PNG } from '../../test/images.js';
import { bufferCalls } from '../../test/buffer-calls.js';

/** The start of a Windows executable ("MZ"), as an .exe renamed .png would hold. */
const EXE = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), Buffer.alloc(200)]);
/** The start of an MP4 (an ISO base media `ftyp` box, brand isom) and some bytes. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(4000, 7)]);
const b64 = (b: Buffer) => b.toString('base64');

async function xlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Sheet1').addRow(['name', 'score']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

type StorageKind = 'disk' | 's3';
const cases: [Engine, StorageKind][] = engines().flatMap((e) => [
  [e, 'disk'],
  [e, 's3'],
]);

describe.each(cases)('files on %s with %s storage', (engine, storageKind) => {
  let s: TestServer;
  let s3: Awaited<ReturnType<typeof startS3Server>> | undefined;
  let school: string;
  let hospital: string;
  let provider: string;

  beforeAll(async () => {
    let files: Config['files'] | undefined;
    if (storageKind === 's3') {
      s3 = await startS3Server();
      files = { storage: 's3', s3: s3.options };
    }
    s = await startTestServer(engine, files ? { config: { files } } : {});
    [school, hospital, provider] = (await Promise.all(['school', 'hospital', 'provider'].map((u) => s.login(u)))).map((u) => u.token);
  });
  afterAll(async () => {
    await s?.close();
    await s3?.close();
  });

  const get = (url: string) => s.app.inject({ method: 'GET', url });
  const upload = (body: Record<string, unknown>, token = school) =>
    s.call('as.m.access.updateToOSS', { use: 'image', filename: 'a.png', ...body } as never, token);
  const fileCount = async () => (await s.database.db.select().from(storedFile)).length;

  /** PUTs bytes to an upload target: this server's (relative URL) or the object store's. */
  async function put(target: { url: string; headers: Record<string, string> }, body: Buffer): Promise<number> {
    if (target.url.startsWith('/'))
      return (await s.app.inject({ method: 'PUT', url: target.url, headers: target.headers, payload: body })).statusCode;
    return (await fetch(target.url, { method: 'PUT', headers: target.headers, body })).status;
  }

  it('stores an image under a generated key and serves it as an image, never sniffed, with its name', async () => {
    const res = await upload({ filename: '../../封面 "x".png', data: b64(PNG) });
    expect(res.errorCode).toBe(0);
    expect(res.data).toMatchObject({
      musercode: 'I0001',
      use: 'image',
      contenttype: 'image/png',
      size: PNG.length,
      status: 'ready',
      filename: '封面 "x".png',
    });
    expect(res.data.key).toMatch(/^[0-9a-f]{32}\.png$/);
    expect(res.data.url).toBe(`/files/${res.data.key}`);
    const served = await get(res.data.url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload).toEqual(PNG);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(served.headers['content-disposition']).toBe(
      `inline; filename="__ _x_.png"; filename*=UTF-8''${encodeURIComponent('封面 "x".png')}`,
    );
    // A data URL is accepted as well.
    expect((await upload({ data: `data:image/png;base64,${b64(PNG)}` })).errorCode).toBe(0);
  });

  it('refuses by content, not by name: an .exe, HTML or SVG called .png, or a PNG sent as audio; nothing is stored', async () => {
    const before = await fileCount();
    for (const data of [
      EXE,
      Buffer.from('<html><script>alert(1)</script></html>'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    ]) {
      const res = await upload({ filename: 'photo.png', data: b64(data) });
      expect(res.errorCode).toBe(ErrorCode.validation);
      expect(res.errorMsg).toMatch(/文件未接受：内容不是图片/);
    }
    const en = await s.call('as.m.access.updateToOSS', { use: 'audio', filename: 'a.mp3', data: b64(PNG) }, school, {
      'accept-language': 'en-US',
    });
    expect(en.errorMsg).toBe('The file was not accepted: its content is not audio (MP3, M4A, WAV, OGG, AAC)');
    expect((await upload({ data: '@@@not base64@@@' })).errorCode).toBe(ErrorCode.validation);
    expect(await fileCount()).toBe(before);
  });

  it('checks and decodes a large upload’s base64 in the JSON worker, not on the event loop: the same bytes stored, a bad one refused', async () => {
    // Over the size parsed off the thread (1 MiB); padded after the PNG's own end, as a camera may.
    const large = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024, 0x5a)]);
    const { result: res, sizes } = await bufferCalls('from', 64 * 1024, () => upload({ data: `data:image/png;base64,${b64(large)}` }));
    expect(res.errorCode).toBe(0);
    expect(res.data.size).toBe(large.length);
    expect(sizes).toEqual([]);
    expect((await get(res.data.url)).rawPayload).toEqual(large);

    const before = await fileCount();
    const broken = b64(large);
    const bad = await upload({ data: `${broken.slice(0, 1_500_000)}@${broken.slice(1_500_001)}` });
    expect(bad.errorCode).toBe(ErrorCode.validation);
    expect(bad.errorMsg).toBe('文件内容不是有效的 base64');
    expect(await fileCount()).toBe(before);
  });

  it('refuses a file over its use’s size limit, and an Excel file that is not a workbook', async () => {
    const before = await fileCount();
    const big = Buffer.concat([PNG, Buffer.alloc(fileLimits.image + 1 - PNG.length)]);
    const res = await upload({ data: b64(big) });
    expect(res.errorCode).toBe(ErrorCode.validation);
    expect(res.errorMsg).toMatch(/文件过大/);
    const zip = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(100)]);
    expect((await upload({ use: 'excel', filename: 'a.xlsx', data: b64(zip) })).errorCode).not.toBe(0);
    expect(await fileCount()).toBe(before);
    const ok = await upload({ use: 'excel', filename: '名单.xlsx', data: b64(await xlsx()) });
    expect(ok.data).toMatchObject({ use: 'excel', contenttype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    // A workbook is only ever downloaded, never shown in place.
    expect((await get(ok.data.url)).headers['content-disposition']).toMatch(/^attachment; /);
  });

  it('answers byte ranges (206, Accept-Ranges, Content-Range; 416 past the end) with the same type, disposition and nosniff', async () => {
    const wav = toneWav(0.5, [440]);
    const { url } = (await s.call('as.m.access.updateToOSS', { use: 'audio', filename: '放松.wav', data: b64(wav) }, school)).data;
    const ranged = (range: string, extra: Record<string, string> = {}) => s.app.inject({ method: 'GET', url, headers: { range, ...extra } });
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');

    const part = await ranged('bytes=100-199');
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${wav.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload).toEqual(wav.subarray(100, 200));
    expect(part.headers).toMatchObject({ 'content-type': 'audio/wav', 'x-content-type-options': 'nosniff', 'accept-ranges': 'bytes' });
    expect(part.headers['content-disposition']).toMatch(/^inline; /);
    // Open-ended and suffix ranges, and an end past the size (clipped).
    expect((await ranged(`bytes=${wav.length - 10}-`)).rawPayload).toEqual(wav.subarray(-10));
    expect((await ranged('bytes=-4')).headers['content-range']).toBe(`bytes ${wav.length - 4}-${wav.length - 1}/${wav.length}`);
    expect((await ranged(`bytes=0-${wav.length + 500}`)).rawPayload).toEqual(wav);

    const past = await ranged(`bytes=${wav.length}-`);
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${wav.length}`);
    // Malformed, several ranges, or an If-Range we cannot match: the whole file.
    for (const [range, extra] of [['lines=1-2', {}], ['bytes=0-1,5-6', {}], ['bytes=0-1', { 'if-range': 'W/"x"' }]] as const) {
      const res = await ranged(range, extra);
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length).toBe(wav.length);
    }
    const head = await s.app.inject({ method: 'HEAD', url, headers: { range: 'bytes=0-9' } });
    expect(head.statusCode).toBe(206);
    expect(head.headers['content-length']).toBe('10');
  });

  it('takes a large file through a signed upload target, checked on confirmation', async () => {
    const res = await s.call('as.m.access.updateToOSSPath', { use: 'video', filename: '课程.mp4', size: MP4.length }, school);
    expect(res.errorCode).toBe(0);
    const { file, upload: target } = res.data;
    expect(file).toMatchObject({ status: 'pending', use: 'video', size: MP4.length });
    expect(res.data.expiresat).toBe(new Date(s.clock.now().getTime() + 30 * 60_000).toISOString());
    expect((await get(file.url)).statusCode).toBe(404); // pending: not served
    expect((await s.call('as.m.access.confirmOSSPath', { fileid: file.fileid }, school)).errorCode).toBe(ErrorCode.validation); // nothing uploaded yet
    expect(await put(target, MP4)).toBe(200);
    const ready = await s.call('as.m.access.confirmOSSPath', { fileid: file.fileid }, school);
    expect(ready.data).toMatchObject({ status: 'ready', contenttype: 'video/mp4' });
    const served = await get(file.url);
    expect(served.headers['content-type']).toBe('video/mp4');
    expect(served.rawPayload.length).toBe(MP4.length);
    // Confirming again changes nothing.
    expect((await s.call('as.m.access.confirmOSSPath', { fileid: file.fileid }, school)).data).toEqual(ready.data);
  });

  it('never changes a confirmed file: bytes PUT to its target afterwards are not served (refused on disk, set aside on S3)', async () => {
    const res = await s.call('as.m.access.updateToOSSPath', { use: 'video', filename: 'late.mp4', size: MP4.length }, school);
    const { file, upload: target } = res.data;
    expect(await put(target, MP4)).toBe(200);
    expect((await s.call('as.m.access.confirmOSSPath', { fileid: file.fileid }, school)).data).toMatchObject({ status: 'ready' });
    // The same size, other bytes: within what the target was signed for.
    const other = Buffer.from(MP4);
    other[other.length - 1] ^= 0xff;
    expect(await put(target, other)).toBe(storageKind === 's3' ? 200 : 403);
    const served = await get(file.url);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(MP4)).toBe(true);
    expect((await s.call('as.m.access.confirmOSSPath', { fileid: file.fileid }, school)).data).toMatchObject({ status: 'ready', size: MP4.length });
  });

  it('removes a signed upload whose content does not fit its use, and refuses it', async () => {
    const res = await s.call('as.m.access.updateToOSSPath', { use: 'video', filename: 'movie.mp4', size: EXE.length }, school);
    expect(await put(res.data.upload, EXE)).toBe(200);
    const refused = await s.call('as.m.access.confirmOSSPath', { fileid: res.data.file.fileid }, school);
    expect(refused.errorCode).toBe(ErrorCode.validation);
    expect(refused.errorMsg).toMatch(/视频/);
    expect(await s.database.db.select().from(storedFile).where(eq(storedFile.fileid, res.data.file.fileid))).toEqual([]);
    // Over the use's limit is refused before any target is given.
    expect(
      (await s.call('as.m.access.updateToOSSPath', { use: 'image', filename: 'a.png', size: fileLimits.image + 1 }, school)).errorCode,
    ).toBe(ErrorCode.validation);
  });

  it.runIf(storageKind === 'disk')('refuses a forged, expired or overfull upload to this server', async () => {
    const res = await s.call('as.m.access.updateToOSSPath', { use: 'video', filename: 'm.mp4', size: MP4.length }, school);
    const url: string = res.data.upload.url;
    const forged = url.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect(await put({ url: forged, headers: res.data.upload.headers }, MP4)).toBe(403);
    // The signature covers the size: a larger size in the same URL is no use either; more bytes than declared are refused.
    expect(await put(res.data.upload, Buffer.concat([MP4, Buffer.alloc(10)]))).toBe(413);
    expect((await s.call('as.m.access.confirmOSSPath', { fileid: res.data.file.fileid }, school)).errorCode).toBe(ErrorCode.validation);
    s.clock.advance(31 * 60_000);
    expect(await put(res.data.upload, MP4)).toBe(403);
    // The sessions went idle meanwhile.
    [school, hospital, provider] = (await Promise.all(['school', 'hospital', 'provider'].map((u) => s.login(u)))).map((u) => u.token);
  });

  it('lists files per institution with uses; another institution’s file is not found; a file in use is not deleted', async () => {
    const own = (await upload({ filename: 'own-cover.png', data: b64(PNG) })).data;
    const sibling = (
      await s.call('as.m.access.updateToOSS', { musercode: 'I0002', use: 'image', filename: 'sibling.png', data: b64(PNG) }, provider)
    ).data;
    expect(sibling?.musercode, JSON.stringify(sibling)).toBe('I0002');

    const page = await s.call('as.m.access.getFilePage', { filename: 'own-cover', page: 1, pageSize: 10 }, school);
    expect(page.data).toMatchObject({ total: 1, rows: [{ fileid: own.fileid, insname: expect.any(String), uses: 0 }] });
    expect((await s.call('as.m.access.getFilePage', { filename: 'sibling' }, school)).data.total).toBe(0);
    expect((await s.call('as.m.access.getFilePage', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.access.getFilePage', { filename: 'sibling' }, provider)).data.total).toBe(1);
    expect((await s.call('as.m.access.getFilePage', { filename: 'own-cover' }, hospital)).data.total).toBe(0);
    expect((await s.call('as.m.access.deleteFile', { fileid: own.fileid }, hospital)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.access.deleteFile', { fileid: sibling.fileid }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.access.confirmOSSPath', { fileid: sibling.fileid }, school)).errorCode).toBe(ErrorCode.notFound);
    expect(
      (await s.call('as.m.access.updateToOSS', { musercode: 'I0002', use: 'image', filename: 'x.png', data: b64(PNG) }, school)).errorCode,
    ).toBe(ErrorCode.notFound);

    await setFileUses(s.database.db, 'article', 'ART1', [own.fileid]);
    expect((await s.call('as.m.access.getFilePage', { filename: 'own-cover' }, school)).data.rows[0].uses).toBe(1);
    const refused = await s.call('as.m.access.deleteFile', { fileid: own.fileid }, school);
    expect(refused.errorCode).toBe(ErrorCode.conflict);
    expect((await get(own.url)).statusCode).toBe(200);
    await setFileUses(s.database.db, 'article', 'ART1', []);
    expect((await s.call('as.m.access.deleteFile', { fileid: own.fileid }, school)).errorCode).toBe(0);
    expect((await get(own.url)).statusCode).toBe(404);
    expect((await s.call('as.m.access.deleteFile', { fileid: own.fileid }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('serves nothing but stored keys: paths and unknown keys are not found', async () => {
    for (const url of [
      '/files/..%2F..%2Fetc%2Fpasswd',
      '/files/../../etc/passwd',
      '/files/%2Fetc%2Fpasswd',
      `/files/${'0'.repeat(32)}.png`,
      '/files/x.png',
    ])
      expect((await get(url)).statusCode).toBe(404);
  });
});
