import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { toneWav } from '../../kit/upload/wav.js';
import { SANDBOX_SIGNATURE_HEADER, SandboxProvider } from '../orders/payment.js';
import { PNG_BASE64 } from '../../test/images.js';

const WAV = toneWav(0.2, [440]).toString('base64');
const MINUTE = 60_000;

type Course = { courseid: string; locked: boolean; bought: boolean; lessons: { videourl: string }[] };

/**
 * Issue 27 item 11: a course that goods sell stays locked to whoever has not paid for it, whatever
 * the goods' listing; lesson media are served only by signed URLs that expire.
 */
describe.each(engines())('sold courses and lesson URLs on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let entrytoken: string;
  let courseid: string;
  let goodsid: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.24.0.${++ip}` });

  beforeAll(async () => {
    s = await startTestServer(engine);
    school = (await s.login('school')).token;
    const provider = (await s.login('provider')).token;
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0001', title: '滨江一中', appids: ['000000002'], showresult: 1 },
      provider,
    );
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
    const audio = (await s.call('as.m.access.updateToOSS', { use: 'audio', filename: 'l.wav', data: WAV }, school)).data.fileid;
    const cover = (await s.call('as.m.access.updateToOSS', { use: 'image', filename: 'c.png', data: PNG_BASE64 }, school)).data.fileid;
    courseid = (
      await s.call(
        'as.m.course.insertCourse',
        { title: '付费课', coverfileid: cover, lessons: [{ title: '一', videofileid: audio }] },
        school,
      )
    ).data.courseid;
    // Goods that sell it, not yet listed.
    goodsid = (
      await s.call(
        'as.m.goods.insertGoods',
        { goodsname: '付费课', price: 19900, stock: 5, grantkind: 'course', grantcourseid: courseid },
        school,
      )
    ).data.goodsid;
  });
  afterAll(() => s?.close());

  const seen = async (ordertokens: string[] = []): Promise<Course> =>
    (await s.call('as.c.content.getMedia', { entrytoken, ordertokens }, undefined, nextIp())).data.courses.find(
      (c: Course) => c.courseid === courseid,
    );
  const get = (url: string) => s.app.inject({ method: 'GET', url });
  const setStatus = async (status: number) =>
    expect((await s.call('as.m.goods.setGoodsStatus', { goodsid, status }, school)).errorCode).toBe(0);

  it('stays locked while its goods are to be listed, on sale or delisted; a paid order opens it', async () => {
    for (const status of [0, 1, 2]) {
      await setStatus(status);
      const c = await seen();
      expect(c, `goods status ${status}`).toMatchObject({ locked: true, bought: false });
      expect(c.lessons.every((l) => l.videourl === '')).toBe(true);
    }
    await setStatus(1);
    const placed = await s.call(
      'as.c.shop.createOrder',
      { entrytoken, goodsid, quantity: 1, buyername: '王', buyerphone: '13812345678' },
      undefined,
      nextIp(),
    );
    expect(placed.errorCode, placed.errorMsg).toBe(0);
    const body = JSON.stringify({
      callbackid: randomBytes(8).toString('hex'),
      providerref: placed.data.payment.providerref,
      amount: 19900,
      outcome: 'paid',
    });
    const paid = await s.app.inject({
      method: 'POST',
      url: '/pay/sandbox/callback',
      payload: body,
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: await new SandboxProvider(s.database.db).sign(body) },
    });
    expect(paid.json().result).toBe('applied');
    // Delisted afterwards: still the buyer's, still locked to others.
    await setStatus(2);
    expect(await seen([placed.data.ordertoken])).toMatchObject({ locked: false, bought: true });
    expect(await seen()).toMatchObject({ locked: true });
  });

  it('serves lesson media only by a signed URL that expires; the bare /files/ URL answers 404', async () => {
    const free = (await s.call('as.m.access.updateToOSS', { use: 'audio', filename: 'f.wav', data: WAV }, school)).data;
    const freeCourse = (
      await s.call('as.m.course.insertCourse', { title: '免费课', lessons: [{ title: '一', videofileid: free.fileid }] }, school)
    ).data.courseid;
    const media = await s.call('as.c.content.getMedia', { entrytoken }, undefined, nextIp());
    const lesson = media.data.courses.find((c: Course) => c.courseid === freeCourse).lessons[0];
    expect(lesson.videourl).toMatch(/^\/files\/[0-9a-f]{32}\.wav\?exp=\d+&sig=[0-9a-f]{64}$/);
    expect((await get(lesson.videourl)).statusCode).toBe(200);
    const bare = lesson.videourl.split('?')[0];
    expect(bare).toBe(free.url);
    expect((await get(bare)).statusCode).toBe(404);
    expect((await get(lesson.videourl.replace(/sig=./, (m: string) => (m.endsWith('0') ? 'sig=1' : 'sig=0')))).statusCode).toBe(404);
    const exp = Number(/exp=(\d+)/.exec(lesson.videourl)![1]);
    expect((await get(lesson.videourl.replace(/exp=\d+/, `exp=${exp + 3_600_000}`))).statusCode).toBe(404); // the signature covers the expiry
    // The staff's own view signs them too.
    const staff = (await s.call('as.m.course.getCourse', { courseid: freeCourse }, school)).data.lessons[0].videourl;
    expect((await get(staff)).statusCode).toBe(200);
    // Expired: refused.
    s.clock.advance(exp - s.clock.now().getTime() + MINUTE);
    expect((await get(lesson.videourl)).statusCode).toBe(404);
    // Covers and track audio stay plain capability URLs (shown to every respondent of the entry).
    const cover = (await s.call('as.c.content.getMedia', { entrytoken }, undefined, nextIp())).data.courses.find(
      (c: { courseid: string }) => c.courseid === courseid,
    ).coverurl;
    expect(cover).toMatch(/^\/files\/[0-9a-f]{32}\.png$/);
    expect((await get(cover)).statusCode).toBe(200);
    expect(ErrorCode.notFound).toBeDefined();
  });
});
