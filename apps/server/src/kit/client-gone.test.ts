import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { clientGoneSignal } from './client-gone.js';

/** A real server whose handler gets the signal's getter and waits until the test says how to answer. */
async function serve() {
  const server = http.createServer();
  let handed: { signal: () => AbortSignal; res: http.ServerResponse } | undefined;
  const arrived = new Promise<void>((resolve) => {
    server.once('request', (req, res) => {
      handed = { signal: clientGoneSignal(res), res };
      req.resume();
      resolve();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onTestFinished(() => void server.close());
  const req = http.request({ port: (server.address() as AddressInfo).port, method: 'POST', host: '127.0.0.1' });
  req.on('error', () => {});
  req.end('{}');
  await arrived;
  const closed = new Promise<void>((r) => handed!.res.once('close', () => r()));
  return { req, ...handed!, closed };
}

describe('clientGoneSignal', () => {
  it('aborts a signal asked for before the client left, when it leaves', async () => {
    const s = await serve();
    const signal = s.signal();
    expect(signal.aborted).toBe(false);
    s.req.destroy();
    await s.closed;
    expect(signal.aborted).toBe(true);
  });

  it('answers an aborted signal when first asked for after the client left', async () => {
    const s = await serve();
    s.req.destroy();
    await s.closed;
    expect(s.signal().aborted).toBe(true);
  });

  it('never aborts once the answer was sent, and answers the same signal every time', async () => {
    const s = await serve();
    s.res.end('ok');
    await s.closed;
    expect(s.signal().aborted).toBe(false);
    expect(s.signal()).toBe(s.signal());
  });
});
