import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Cookies from 'js-cookie';
import { ApiError, call, clearErrorMessages, closeReloginDialog, download, REQUEST_TIMEOUT_MS } from './client';
import { fileNameOf } from './client';
import { setFeedback } from './feedback';
import i18n, { t } from '../i18n';

const message = { error: vi.fn(), success: vi.fn(), info: vi.fn(), warning: vi.fn(), destroy: vi.fn() };
// antd's confirm answers a handle to the dialog it opened.
const modal = { confirm: vi.fn((_config: any) => ({ destroy: vi.fn() })), warning: vi.fn() };

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  vi.clearAllMocks();
  setFeedback({ message, modal } as never);
  Cookies.remove('token');
});
afterEach(() => vi.unstubAllGlobals());

describe('call (SPEC §7)', () => {
  it('posts JSON to the action path with token and language headers and answers data', async () => {
    Cookies.set('token', 'tok-1');
    const fetch = vi.fn().mockResolvedValue(json({ errorCode: 0, errorMsg: '', data: { time: 'now' } }));
    vi.stubGlobal('fetch', fetch);
    await expect(call('as.m.system.ping', {})).resolves.toEqual({ time: 'now' });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/as.m.system.ping/1.0.0/action');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ token: 'tok-1', 'Accept-Language': 'zh-CN', 'Content-Type': 'application/json' });
    expect(init.body).toBe('{}');
    expect(message.error).not.toHaveBeenCalled();
  });

  it('sends no token header when signed out', async () => {
    const fetch = vi.fn().mockResolvedValue(json({ errorCode: 0, data: null }));
    vi.stubGlobal('fetch', fetch);
    await call('as.m.system.ping', {});
    expect(fetch.mock.calls[0][1].headers).not.toHaveProperty('token');
  });
});

describe('error handling (SPEC §8)', () => {
  it('shows errorMsg for 5 seconds and rejects with the code', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ errorCode: 100409, errorMsg: '数据冲突', data: null }, 409)));
    const err = await call('as.m.system.ping', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(100409);
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: '数据冲突', duration: 5 }));
    expect(modal.confirm).not.toHaveBeenCalled();
  });

  it("falls back to 'Error' without errorMsg", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ errorCode: 1 })));
    await expect(call('as.m.system.ping', {})).rejects.toThrow('Error');
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: 'Error', duration: 5 }));
  });

  it('treats an answer with request_id as not an error', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ errorCode: 7, request_id: 'r1', data: 'x' })));
    await expect(call('as.m.system.ping', {})).resolves.toBe('x');
    expect(message.error).not.toHaveBeenCalled();
  });

  it('opens one re-login dialog for 110000, however many calls fail', async () => {
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => json({ errorCode: 110000, errorMsg: '用户身份已失效，请重新登录' })));
    await Promise.allSettled([call('as.m.system.ping', {}), call('as.m.system.ping', {})]);
    expect(modal.confirm).toHaveBeenCalledTimes(1);
    const config = modal.confirm.mock.calls[0][0];
    expect(config).toMatchObject({ title: '系统提示', content: '用户身份已失效，请重新登录', okText: '重新登录', cancelText: '取消' });
    // Re-login resets the token and reloads.
    Cookies.set('token', 'stale');
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    config.onOk();
    expect(Cookies.get('token')).toBeUndefined();
    expect(reload).toHaveBeenCalled();
    config.afterClose();
  });

  it('shows the 110000 message once, however many calls fail together', async () => {
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => json({ errorCode: 110000, errorMsg: '用户身份已失效，请重新登录' })));
    const results = await Promise.allSettled([call('as.m.system.ping', {}), call('as.m.system.ping', {}), call('as.m.system.ping', {})]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).code === 110000)).toBe(true);
    expect(message.error).toHaveBeenCalledTimes(1);
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: '用户身份已失效，请重新登录', duration: 5 }));
    expect(modal.confirm).toHaveBeenCalledTimes(1);
    // Once the dialog is closed, the next expiry is shown again.
    modal.confirm.mock.calls[0][0].afterClose();
    await call('as.m.system.ping', {}).catch(() => undefined);
    expect(message.error).toHaveBeenCalledTimes(2);
    expect(modal.confirm).toHaveBeenCalledTimes(2);
    modal.confirm.mock.calls[1][0].afterClose();
  });

  it('shows nothing for an expiry answered after the session it was sent with ended (signed out meanwhile)', async () => {
    Cookies.set('token', 'old');
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation(async () => {
        Cookies.remove('token'); // the sign-out (a changed password) happened while the call was out
        return json({ errorCode: 110000, errorMsg: '用户身份已失效，请重新登录' });
      }),
    );
    const err = (await call('as.m.system.ping', {}).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe(110000);
    expect(modal.confirm).not.toHaveBeenCalled();
    expect(message.error).not.toHaveBeenCalled();
  });

  it('signing out closes the re-login dialog: the sign-in page shows no dialog over it', async () => {
    const destroy = vi.fn();
    modal.confirm.mockReturnValueOnce({ destroy });
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => json({ errorCode: 110000, errorMsg: '用户身份已失效，请重新登录' })));
    await call('as.m.system.ping', {}).catch(() => undefined);
    expect(modal.confirm).toHaveBeenCalledTimes(1);
    closeReloginDialog();
    expect(destroy).toHaveBeenCalled();
    // Closed, so the next expiry opens it again.
    await call('as.m.system.ping', {}).catch(() => undefined);
    expect(modal.confirm).toHaveBeenCalledTimes(2);
    modal.confirm.mock.calls[1][0].afterClose();
  });

  it("shows a network error as a translated sentence in the console's language, for 5 seconds", async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const err = (await call('as.m.system.ping', {}).catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ code: -1 });
    expect(err.message).toBe(t('shell.networkError'));
    expect(err.message).not.toMatch(/fetch/i);
    expect(err.message).toMatch(/网络/);
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: err.message, duration: 5 }));
    await i18n.changeLanguage('en-US');
    try {
      const en = (await call('as.m.system.ping', {}).catch((e: unknown) => e)) as ApiError;
      expect(en.message).toMatch(/network/i);
      expect(en.message).not.toMatch(/fetch/i);
    } finally {
      await i18n.changeLanguage('zh-CN');
    }
  });

  it('shows one message for the same error of calls failing together, and closes them when the page is left', async () => {
    vi.stubGlobal('fetch', vi.fn().mockImplementation(async () => json({ errorCode: 100404, errorMsg: '阶段不存在：ST-W1' })));
    await Promise.allSettled([1, 2, 3, 4, 5].map(() => call('as.m.system.ping', {})));
    // Every call reports it, under one key: antd replaces a message of the same key, so one shows.
    const keys = new Set(message.error.mock.calls.map(([m]) => (m as { key?: string }).key));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toBeTruthy();
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: '阶段不存在：ST-W1', duration: 5 }));
    clearErrorMessages();
    expect(message.destroy).toHaveBeenCalledWith([...keys][0]);
    // Nothing left to close afterwards.
    message.destroy.mockClear();
    clearErrorMessages();
    expect(message.destroy).not.toHaveBeenCalled();
  });

  it('stays quiet when asked to (sign-out of a revoked session)', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ errorCode: 110000, errorMsg: 'x' })));
    await expect(call('as.m.user.logout', {}, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(message.error).not.toHaveBeenCalled();
    expect(modal.confirm).not.toHaveBeenCalled();
  });

  it('a call answered by a proxy error page says so in the console language', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })));
    await expect(call('as.m.system.ping', {})).rejects.toBeInstanceOf(ApiError);
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: '服务暂时不可用（HTTP 502），请稍后重试', duration: 5 }));
  });

  it('a call its page cancelled while the answer was arriving shows nothing (the user moved on)', async () => {
    const cancel = new AbortController();
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"errorCode":0,'));
      },
    });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })));
    const read = vi.spyOn(Response.prototype, 'json').mockImplementation(() => {
      cancel.abort();
      return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
    });
    try {
      await expect(call('as.m.system.ping', {}, { signal: cancel.signal })).rejects.toBeInstanceOf(ApiError);
      expect(message.error).not.toHaveBeenCalled();
    } finally {
      read.mockRestore();
    }
  });

  it('aborts after the 600000 ms timeout', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn().mockImplementation((_u: string, init: RequestInit) => new Promise((_r, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))),
    );
    const pending = call('as.m.system.ping', {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(message.error).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const err = await pending;
    expect((err as ApiError).message).toBe('请求超时（600 秒），请稍后重试');
    expect(message.error).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });
});

describe('download (SPEC §7)', () => {
  it('posts the input form-encoded and saves the file under its Content-Disposition name', async () => {
    Cookies.set('token', 'tok-2');
    const fetch = vi.fn().mockResolvedValue(
      new Response('xlsx', { headers: { 'content-type': 'application/octet-stream', 'content-disposition': "attachment; filename=\"a.xlsx\"; filename*=UTF-8''%E5%90%8D%E5%8D%95.xlsx" } }),
    );
    vi.stubGlobal('fetch', fetch);
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    await download('as.m.system.ping', {});
    const init = fetch.mock.calls[0][1];
    expect(init.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(init.body);
    expect(JSON.parse(form.get('payload')!)).toEqual({});
    expect(form.get('token')).toBe('tok-2');
    expect(clicks).toEqual(['名单.xlsx']);
  });

  it("shows a JSON error's message", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json({ errorCode: 100403, errorMsg: '没有执行此操作的权限' }, 403)));
    await expect(download('as.m.system.ping', {})).rejects.toBeInstanceOf(ApiError);
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: '没有执行此操作的权限', duration: 5 }));
  });

  it('shows the generic download error otherwise', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('oops', { status: 500, headers: { 'content-type': 'text/plain' } })));
    await expect(download('as.m.system.ping', {})).rejects.toBeInstanceOf(ApiError);
    expect(message.error).toHaveBeenCalledWith(expect.objectContaining({ content: '下载文件出现错误，请联系管理员！', duration: 5 }));
  });

  it('reads file names from Content-Disposition, defaulting to none', () => {
    expect(fileNameOf('attachment; filename="r.xlsx"')).toBe('r.xlsx');
    expect(fileNameOf("attachment; filename*=UTF-8''%E6%8A%A5%E5%91%8A.zip")).toBe('报告.zip');
    expect(fileNameOf(null)).toBeUndefined();
  });
});
