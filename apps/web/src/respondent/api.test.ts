/** The respondent client's reading of the server's answers: which failures the screens offer to try again. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLang } from './i18n';
import { call, RespondentError } from './api';

const answer = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

describe('respondent client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a busy server (503 with its sentence) is a failure to try again, in the server’s words', async () => {
    setLang('en-US');
    vi.stubGlobal('fetch', answer(503, { errorCode: 100500, errorMsg: 'The server is busy: please try again in a moment', data: null }));
    const err = await call('as.c.exam.start', { assesscode: 'ABCDEFGHJK' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RespondentError);
    expect(err).toMatchObject({ message: 'The server is busy: please try again in a moment', code: 100500, network: true });
  });

  it('a refusal of the answer itself (HTTP 200, an error code) is not offered again', async () => {
    setLang('zh-CN');
    vi.stubGlobal('fetch', answer(200, { errorCode: 100404, errorMsg: '测评码不存在', data: null }));
    const err = await call('as.c.exam.start', { assesscode: 'ABCDEFGHJK' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ message: '测评码不存在', code: 100404, network: false });
  });
});
