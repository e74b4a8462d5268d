/**
 * The event stream: an event reaches the page, a dropped stream is opened again (after a
 * backoff), a refused session is not tried again, and the token travels in the header.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import { backoffDelay, useEventStream } from './event-stream';

vi.mock('../api', () => ({ getToken: () => 'TOKEN-1' }));

function Stream(props: Parameters<typeof useEventStream>[0]) {
  useEventStream(props);
  return null;
}

const sse = (text: string) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(text));
        c.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
const refused = () =>
  new Response(JSON.stringify({ errorCode: 110000, errorMsg: 'expired' }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

describe('backoffDelay', () => {
  it('doubles from one second up to a minute, with jitter between half and all of it', () => {
    expect(backoffDelay(0, () => 1)).toBe(1000);
    expect(backoffDelay(0, () => 0)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(8000);
    expect(backoffDelay(10, () => 1)).toBe(60_000);
    expect(backoffDelay(1000, () => 0)).toBe(30_000);
  });
});

describe('useEventStream', () => {
  it('delivers events, reconnects after the stream ends, stops when the session is refused', async () => {
    const answers = [() => sse('event: warning\ndata: {"caseid":"C1"}\n\n'), refused];
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => (answers.shift() ?? refused)());
    const onEvent = vi.fn();
    const onOpen = vi.fn();
    render(<Stream enabled onEvent={onEvent} onOpen={onOpen} fetchImpl={fetchImpl as typeof fetch} />);

    await waitFor(() => expect(onEvent).toHaveBeenCalledWith(expect.objectContaining({ event: 'warning', data: '{"caseid":"C1"}' })));
    expect(onOpen).toHaveBeenCalledTimes(1);
    const headers = fetchImpl.mock.calls[0][1]!.headers as Record<string, string>;
    expect(headers.token).toBe('TOKEN-1');
    // The stream ended: a second connection follows (after the first backoff, at most 1 s) …
    await waitFor(() => expect(fetchImpl).toHaveBeenCalledTimes(2), { timeout: 5000 });
    // … which the server refuses (expired session): no third one.
    await new Promise((r) => setTimeout(r, 2100));
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('opens nothing when not enabled', async () => {
    const fetchImpl = vi.fn();
    render(<Stream enabled={false} onEvent={() => undefined} fetchImpl={fetchImpl as unknown as typeof fetch} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});
