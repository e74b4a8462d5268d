import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../test/harness.js';
import { PNG_BASE64 } from '../../test/images.js';

describe.each(engines())('articles on %s', (engine) => {
  let s: TestServer;
  let school: string;
  let provider: string;
  let entrytoken: string;
  let ip = 0;
  const nextIp = () => ({ 'x-test-ip': `10.9.0.${++ip}` });

  beforeAll(async () => {
    s = await startTestServer(engine);
    [school, provider] = await Promise.all(['school', 'provider'].map(async (u) => (await s.login(u)).token));
    const made = await s.call(
      'as.m.user.createMUserClient',
      { musercode: 'I0001', title: '阳光中学心理中心', appids: ['000000002'], showresult: 1, hotline: '0571-12345678' },
      provider,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    entrytoken = String(made.data.qrcodeurl).split('/r/')[1]!;
  });
  afterAll(() => s?.close());

  const image = async (token = school, musercode?: string) =>
    (
      await s.call(
        'as.m.access.updateToOSS',
        { ...(musercode ? { musercode } : {}), use: 'image', filename: 'p.png', data: PNG_BASE64 },
        token,
      )
    ).data;

  it('stores a sanitised body: a script, handlers and javascript: links are gone after saving', async () => {
    const pic = await image();
    const content = `<p onclick="steal()">你好<script>alert(1)</script></p><p><a href="javascript:alert(1)">x</a><img src="${pic.url}" alt="图" onerror="alert(2)"></p>`;
    const made = await s.call(
      'as.m.content.insertArticle',
      { title: '考前减压', summary: '几个小方法', coverfileid: pic.fileid, content },
      school,
    );
    expect(made.errorCode, made.errorMsg).toBe(0);
    const read = await s.call('as.m.content.getArticle', { articleid: made.data.articleid }, school);
    expect(read.data).toMatchObject({ title: '考前减压', coverfileid: pic.fileid, coverurl: pic.url, published: 0, publishedat: null });
    expect(read.data.content).toBe(
      `<p>你好</p><p><a target="_blank" rel="noopener noreferrer nofollow">x</a><img src="${pic.url}" alt="图" /></p>`,
    );
    // The picture and cover are in use: the file cannot be deleted while the article exists.
    expect((await s.call('as.m.access.deleteFile', { fileid: pic.fileid }, school)).errorCode).toBe(ErrorCode.conflict);
    expect((await s.call('as.m.content.deleteArticle', { articleid: made.data.articleid }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.access.deleteFile', { fileid: pic.fileid }, school)).errorCode).toBe(0);
  });

  it('refuses pictures and covers that are not the institution’s own images, and changes nothing', async () => {
    const sibling = await image(provider, 'I0002');
    const before = (await s.call('as.m.content.getArticlePage', {}, school)).data.total;
    expect((await s.call('as.m.content.insertArticle', { title: 't', coverfileid: sibling.fileid }, school)).errorCode).toBe(
      ErrorCode.notFound,
    );
    const bad = [
      {
        coverfileid: (
          await s.call(
            'as.m.access.updateToOSS',
            { use: 'pdf', filename: 'a.pdf', data: Buffer.from('%PDF-1.4 x').toString('base64') },
            school,
          )
        ).data.fileid,
      },
      { content: `<p><img src="${sibling.url}"></p>` },
      { content: `<p><img src="/files/${'0'.repeat(32)}.png"></p>` },
    ];
    for (const b of bad) {
      const res = await s.call('as.m.content.insertArticle', { title: 't', ...b }, school);
      expect(res.errorCode).toBe(ErrorCode.validation);
    }
    const en = await s.call('as.m.content.insertArticle', { title: 't', ...bad[0] }, school, {
      'accept-language': 'en-US',
    });
    expect(en.errorMsg).toBe('The cover must be a picture uploaded by the institution');
    expect((await s.call('as.m.content.insertArticle', { title: '' }, school)).errorCode).toBe(ErrorCode.validation);
    expect((await s.call('as.m.content.getArticlePage', {}, school)).data.total).toBe(before);
  });

  it('publishes and withdraws; respondents of the institution’s QR entry see only published ones', async () => {
    const pic = await image();
    const id = (
      await s.call(
        'as.m.content.insertArticle',
        { title: '睡眠小贴士', content: `<h2>早睡</h2><p><img src="${pic.url}" alt="月亮"></p>` },
        school,
      )
    ).data.articleid;
    const draft = (await s.call('as.m.content.insertArticle', { title: '草稿', content: '<p>未发布</p>' }, school)).data.articleid;
    const hospitalArticle = (await s.call('as.m.content.insertArticle', { musercode: 'I0002', title: '孕期营养' }, provider)).data
      .articleid;
    await s.call('as.m.content.publishArticle', { articleid: hospitalArticle, published: 1 }, provider);

    expect((await s.call('as.c.content.getArticle', { entrytoken, articleid: id }, undefined, nextIp())).errorCode).toBe(
      ErrorCode.notFound,
    );
    expect((await s.call('as.m.content.publishArticle', { articleid: id, published: 1 }, school)).errorCode).toBe(0);
    const list = await s.call('as.c.content.getArticles', { entrytoken }, undefined, nextIp());
    expect(list.data).toMatchObject({ insname: '滨江第一中学', title: '阳光中学心理中心' });
    // Newest first: the demo's published articles of the school come after it.
    expect(list.data.rows[0]).toMatchObject({ articleid: id, title: '睡眠小贴士', publishedat: s.clock.now().toISOString() });
    const shown = list.data.rows.map((r: { articleid: string }) => r.articleid);
    expect(shown).not.toContain(draft);
    expect(shown).not.toContain(hospitalArticle);
    const one = await s.call('as.c.content.getArticle', { entrytoken, articleid: id }, undefined, nextIp());
    expect(one.data).toMatchObject({ title: '睡眠小贴士', content: `<h2>早睡</h2><p><img src="${pic.url}" alt="月亮" /></p>` });
    // A draft, and another institution's published article, are not found through this entry.
    for (const articleid of [draft, hospitalArticle])
      expect((await s.call('as.c.content.getArticle', { entrytoken, articleid }, undefined, nextIp())).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.c.content.getArticles', { entrytoken: 'x'.repeat(20) }, undefined, nextIp())).errorCode).toBe(
      ErrorCode.notFound,
    );

    expect((await s.call('as.m.content.publishArticle', { articleid: id, published: 0 }, school)).errorCode).toBe(0);
    expect((await s.call('as.c.content.getArticles', { entrytoken }, undefined, nextIp())).data.total).toBe(list.data.total - 1);
    const filtered = await s.call('as.m.content.getArticlePage', { published: 0, title: '睡眠' }, school);
    expect(filtered.data).toMatchObject({ total: 1, rows: [{ articleid: id, published: 0, publishedat: null }] });
  });

  it('another institution’s article is not found for reading, editing, publishing or deleting', async () => {
    const theirs = (await s.call('as.m.content.insertArticle', { musercode: 'I0002', title: '他院文章' }, provider)).data.articleid;
    expect((await s.call('as.m.content.getArticle', { articleid: theirs }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.content.updateArticle', { articleid: theirs, title: 'x' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.content.publishArticle', { articleid: theirs, published: 1 }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.content.deleteArticle', { articleid: theirs }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.content.getArticlePage', { musercode: 'I0002' }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.content.getArticle', { articleid: theirs }, provider)).data.title).toBe('他院文章');
  });

  it('an edit keeps the file uses exact: a picture taken out may be deleted', async () => {
    const a = await image();
    const b = await image();
    const id = (
      await s.call('as.m.content.insertArticle', { title: '两张图', content: `<p><img src="${a.url}"><img src="${b.url}"></p>` }, school)
    ).data.articleid;
    await s.call('as.m.content.publishArticle', { articleid: id, published: 1 }, school);
    expect(
      (await s.call('as.m.content.updateArticle', { articleid: id, title: '一张图', content: `<p><img src="${b.url}"></p>` }, school))
        .errorCode,
    ).toBe(0);
    expect((await s.call('as.m.content.getArticle', { articleid: id }, school)).data).toMatchObject({ title: '一张图', published: 1 });
    expect((await s.call('as.m.access.deleteFile', { fileid: a.fileid }, school)).errorCode).toBe(0);
    expect((await s.call('as.m.access.deleteFile', { fileid: b.fileid }, school)).errorCode).toBe(ErrorCode.conflict);
  });
});
