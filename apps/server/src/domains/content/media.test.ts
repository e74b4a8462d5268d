import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { toneWav } from '../../kit/upload/wav.js';
import { PNG_BASE64 } from '../../test/images.js';

const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(200, 1)]).toString('base64');
const WAV = toneWav(0.2, [440]).toString('base64');

describe.each(engines())('music and cloud classroom on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  let entrytoken: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.12.0.${++ip}` });

  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, provider] = await Promise.all(['school', 'provider'].map(async (u) => (await s.login(u)).token));
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0001', title: '滨江一中心理中心', appids: ['000000002'], showresult: 1, hotline: '0571-1' },
      provider,
    );
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
  });
  afterAll(() => s?.close());

  const upload = async (use: string, data: string, token = school, musercode?: string) =>
    (await s.call('as.m.access.updateToOSS', { ...(musercode ? { musercode } : {}), use, filename: `f.${use}`, data } as never, token)).data
      .fileid as string;

  it('adds tracks in order, enabled for apps; respondents of the entry hear only enabled ones offered to its apps', async () => {
    const audio = await upload('audio', WAV);
    const cover = await upload('image', PNG_BASE64);
    const a = await s.call(
      'as.m.music.insertTrack',
      { title: '海浪', audiofileid: audio, coverfileid: cover, sort: 2, appids: ['000000002'] },
      school,
    );
    expect(a.errorCode, a.errorMsg).toBe(0);
    const b = (await s.call('as.m.music.insertTrack', { title: '森林', audiofileid: audio, sort: 1 }, school)).data.trackid;
    const off = (await s.call('as.m.music.insertTrack', { title: '停用的', audiofileid: audio, enabled: 0 }, school)).data.trackid;

    const page = await s.call('as.m.music.getTrackPage', { title: '' }, school);
    const mine = page.data.rows
      .filter((r: { trackid: string }) => [a.data.trackid, b, off].includes(r.trackid))
      .map((r: { title: string }) => r.title);
    expect(mine).toEqual(['停用的', '森林', '海浪']); // by sort
    const media = await s.call('as.c.content.getMedia', { entrytoken }, undefined, nextIp());
    const heard = media.data.tracks.map((t: { title: string }) => t.title);
    expect(heard).toContain('海浪');
    expect(heard).toContain('森林');
    expect(heard).not.toContain('停用的');
    expect(media.data.tracks.find((t: { title: string }) => t.title === '海浪').audiourl).toMatch(/^\/files\/[0-9a-f]{32}\.wav$/);
    // The audio is in use.
    expect((await s.call('as.m.access.deleteFile', { fileid: audio }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.music.enableTrack', { trackid: b, enabled: 0 }, school)).errorCode).toBe(0);
    expect(
      (await s.call('as.c.content.getMedia', { entrytoken }, undefined, nextIp())).data.tracks.map((t: { title: string }) => t.title),
    ).not.toContain('森林');
  });

  it('refuses a track whose audio is not the institution’s audio, or apps it does not have', async () => {
    const image = await upload('image', PNG_BASE64);
    const theirs = await upload('audio', WAV, provider, 'I0002');
    for (const body of [{ audiofileid: image }, { audiofileid: await upload('audio', WAV), appids: ['000000001'] }])
      expect((await s.call('as.m.music.insertTrack', { title: 'x', ...body }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.music.insertTrack', { title: 'x', audiofileid: theirs }, school)).errorCode).toBe(ErrorCode.notFound);
  });

  it('keeps courses with their lessons in order; lessons replace on edit; another institution’s course is not found', async () => {
    const v1 = await upload('video', MP4);
    const v2 = await upload('video', MP4);
    const made = await s.call(
      'as.m.course.insertCourse',
      {
        title: '正念入门',
        description: '四节课',
        lessons: [
          { title: '第一课', videofileid: v1 },
          { title: '第二课', videofileid: v2 },
        ],
      },
      school,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    const courseid = made.data.courseid;
    const read = await s.call('as.m.course.getCourse', { courseid }, school);
    expect(read.data.lessons.map((l: { lessonno: number; title: string }) => [l.lessonno, l.title])).toEqual([
      [1, '第一课'],
      [2, '第二课'],
    ]);
    expect(
      (await s.call('as.m.course.updateCourse', { courseid, title: '正念入门', lessons: [{ title: '只有一课', videofileid: v2 }] }, school))
        .errorCode,
    ).toBe(0);
    expect((await s.call('as.m.course.getCourse', { courseid }, school)).data).toMatchObject({
      lessoncount: 1,
      lessons: [{ lessonno: 1, title: '只有一课' }],
    });
    expect((await s.call('as.m.access.deleteFile', { fileid: v1 }, school)).errorCode).toBe(0); // no longer used
    expect((await s.call('as.m.access.deleteFile', { fileid: v2 }, school)).errorCode).toBe(ErrorCode.conflict);
    const media = await s.call('as.c.content.getMedia', { entrytoken }, undefined, nextIp());
    expect(media.data.courses.find((c: { courseid: string }) => c.courseid === courseid)).toMatchObject({
      title: '正念入门',
      lessons: [{ lessonno: 1, title: '只有一课' }],
    });

    const theirs = (await s.call('as.m.course.insertCourse', { musercode: 'I0002', title: '孕期课' }, provider)).data.courseid;
    for (const [name, body] of [
      ['as.m.course.getCourse', { courseid: theirs }],
      ['as.m.course.updateCourse', { courseid: theirs, title: 'x' }],
      ['as.m.course.enableCourse', { courseid: theirs, enabled: 0 }],
      ['as.m.course.deleteCourse', { courseid: theirs }],
    ] as const)
      expect((await s.call(name, body, school)).errorCode, name).toBe(ErrorCode.notFound);
    expect(
      (await s.call('as.c.content.getMedia', { entrytoken }, undefined, nextIp())).data.courses.map(
        (c: { courseid: string }) => c.courseid,
      ),
    ).not.toContain(theirs);
    // A lesson must be a video.
    expect(
      (
        await s.call(
          'as.m.course.insertCourse',
          { title: 'x', lessons: [{ title: 'l', videofileid: await upload('image', PNG_BASE64) }] },
          school,
        )
      ).errorCode,
    ).toBe(ErrorCode.validation);
    expect((await s.call('as.m.course.deleteCourse', { courseid }, school)).errorCode).toBe(0);
  });
});
