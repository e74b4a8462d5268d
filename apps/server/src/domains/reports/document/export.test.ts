/**
 * Long PDF exports (issue 27 item 9), with a fake printer in place of Chromium so that the test
 * decides when each PDF is done: printing stops when the client goes away (counted in PDFs begun
 * after the abort), a second export of the same institution is refused as busy while one runs, as
 * is one beyond the process's limit, another caller is answered while an export prints, and a
 * large filter is exported by a cancellable background job with progress, then downloaded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import yauzl from 'yauzl';
import { ErrorCode, REPORT_ZIP_INLINE_MAX } from '@xinli/contract';
import { engines, startTestServer, type TestServer } from '../../../test/harness.js';

/** The fake printer: each PDF waits for the test to let it finish, or for its abort signal. */
const fake = vi.hoisted(() => {
  const state = {
    /** Let PDFs finish as soon as they begin (background jobs); otherwise the test releases each. */
    auto: true,
    begun: 0,
    finished: 0,
    aborted: 0,
    closed: 0,
    gates: [] as (() => void)[],
    waiters: [] as (() => void)[],
    reset() {
      Object.assign(state, { auto: true, begun: 0, finished: 0, aborted: 0, closed: 0, gates: [], waiters: [] });
    },
    /** Resolves once the condition holds (checked whenever the printer does something). */
    until(cond: () => boolean): Promise<void> {
      return cond() ? Promise.resolve() : new Promise<void>((resolve) => state.waiters.push(() => cond() && (resolve(), true)));
    },
    poke() {
      state.waiters = state.waiters.filter((w) => !(w() as unknown as boolean));
    },
    release() {
      state.gates.shift()?.();
    },
  };
  return state;
});

vi.mock('../../../kit/pdf.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../kit/pdf.js')>();
  return {
    ...real,
    canMakePdf: () => true,
    openPrinter: async () => ({
      pdf: (_doc: unknown, signal?: AbortSignal) =>
        new Promise<Buffer>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          fake.begun++;
          let settled = false;
          const done = () => {
            if (settled) return;
            settled = true;
            fake.finished++;
            resolve(Buffer.from('%PDF-fake'));
            fake.poke();
          };
          signal?.addEventListener('abort', () => {
            if (settled) return;
            settled = true;
            fake.aborted++;
            fake.gates = fake.gates.filter((g) => g !== done);
            reject(signal.reason);
            fake.poke();
          });
          if (fake.auto) done();
          else fake.gates.push(done);
          fake.poke();
        }),
      close: async () => {
        fake.closed++;
        fake.poke();
      },
    }),
  };
});

function unzipNames(buf: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => (names.push(e.fileName), zip.readEntry()));
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

describe.each(engines())('long PDF exports on %s', (engine) => {
  let s: TestServer;
  let url: string;
  let hospital: string, school: string, provider: string;
  /** A hospital person with a few reports (a small inline zip), and how many. */
  let cusercode: string, few: number;
  /** A school person with reports. */
  let schoolPerson: string;

  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true, config: { pdfExports: { perProcess: 2, perInstitution: 1, keepHours: 24 } } });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
    hospital = (await s.login('hospital')).token;
    const pick = async (token: string) => {
      const rows = (await s.call('as.m.exam.getCUserReportPageList', { pageSize: 200 }, token)).data.rows as { cusercode: string }[];
      const counts = new Map<string, number>();
      for (const r of rows) counts.set(r.cusercode, (counts.get(r.cusercode) ?? 0) + 1);
      return [...counts].filter(([, n]) => n >= 3 && n <= REPORT_ZIP_INLINE_MAX).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
    };
    [cusercode] = await pick(hospital);
    few = (await s.call('as.m.exam.getCUserReportPageList', { cusercode, pageSize: 1 }, hospital)).data.total;
    [schoolPerson] = await pick((await s.login('school')).token);
  });
  beforeEach(async () => {
    fake.reset();
    [hospital, school, provider] = await Promise.all(['hospital', 'school', 'provider'].map(async (u) => (await s.login(u)).token));
  });
  afterAll(() => s?.close());

  /** Starts an inline zip export over a real socket; answers the request and a promise of the response. */
  function startExport(body: object, token: string) {
    const req = http.request(`${url}/api/as.m.exam.exportReportPdfZip/1.0.0/action`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
    });
    const response = new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', resolve);
      req.on('error', reject);
    });
    req.end(JSON.stringify(body));
    return { req, response };
  }

  it('stops printing when the client goes away, and frees the institution’s slot', async () => {
    fake.auto = false;
    // The server's side of the connection: when it sees the client close it. A client that closes
    // with answer bytes still unread sends a reset, not an end: then the socket only closes.
    let clientLeft!: () => void;
    const left = new Promise<void>((resolve) => (clientLeft = resolve));
    s.app.server.once('connection', (socket) => {
      socket.once('end', () => clientLeft());
      socket.once('close', () => clientLeft());
    });
    const { req, response } = startExport({ cusercode }, hospital);
    response.catch(() => {});
    await fake.until(() => fake.begun === 1);
    fake.release(); // the first PDF is done
    await fake.until(() => fake.begun === 2);
    req.destroy(); // the client goes away while the second PDF prints
    await left;
    // Let every PDF that is still begun finish, until the printer is closed.
    for (;;) {
      await fake.until(() => fake.closed === 1 || fake.gates.length > 0);
      if (fake.closed) break;
      fake.release();
    }
    // Nothing begun after the abort, and the PDF in flight was told to stop.
    expect({ begun: fake.begun, finished: fake.finished, aborted: fake.aborted }).toEqual({ begun: 2, finished: 1, aborted: 1 });
    expect(few).toBeGreaterThan(2);
    // The slot is free again: the next export of the institution runs.
    fake.auto = true;
    const again = await s.raw('as.m.exam.exportReportPdfZip', JSON.stringify({ cusercode }), { token: hospital });
    expect(again.statusCode).toBe(200);
    expect(await unzipNames(again.rawPayload)).toHaveLength(few);
  });

  it('refuses a second export of the same institution, and one beyond the process’s limit, as busy; another caller is answered meanwhile', async () => {
    fake.auto = false;
    const first = startExport({ cusercode }, hospital);
    await fake.until(() => fake.begun === 1);

    // Same institution (another session of it): busy, in the caller's language, HTTP 429.
    const other = (await s.login('hospital')).token;
    const zh = await s.call('as.m.exam.exportReportPdfZip', { cusercode }, other);
    expect([zh.status, zh.errorCode]).toEqual([429, ErrorCode.rateLimited]);
    expect(zh.errorMsg).toContain('正在导出');
    const en = await s.call('as.m.exam.queueReportPdfZip', { cusercode }, other, { 'accept-language': 'en-US' });
    expect([en.status, en.errorCode]).toEqual([429, ErrorCode.rateLimited]);
    expect(en.errorMsg).toContain('try again');

    // Another institution prints alongside (the process allows two) ...
    const second = startExport({ cusercode: schoolPerson }, school);
    await fake.until(() => fake.begun === 2);
    // ... and a third account is refused: the process is at its limit.
    const third = await s.call('as.m.exam.exportReportPdfZip', { cusercode }, provider);
    expect([third.status, third.errorCode]).toEqual([429, ErrorCode.rateLimited]);

    // Another caller is answered while both exports are mid-PDF (nothing has finished printing).
    const list = await s.call('as.m.exam.getCUserReportPageList', { pageSize: 1 }, school);
    expect(list.errorCode).toBe(0);
    expect(fake.finished).toBe(0);

    fake.auto = true;
    while (fake.gates.length) fake.release();
    for (const r of [first, second]) {
      const res = await r.response;
      res.resume();
      await new Promise((resolve) => res.on('end', resolve));
      expect(res.statusCode).toBe(200);
    }
    await fake.until(() => fake.closed === 2);
    expect((await s.raw('as.m.exam.exportReportPdfZip', JSON.stringify({ cusercode }), { token: other })).statusCode).toBe(200);
  });

  it('exports a large filter as a background job with progress, downloaded when done; over the inline limit the download refuses and says so', async () => {
    const inline = await s.call('as.m.exam.exportReportPdfZip', {}, hospital, { 'accept-language': 'en-US' });
    expect(inline.errorCode).toBe(ErrorCode.validation);
    expect(inline.errorMsg).toContain(`more than ${REPORT_ZIP_INLINE_MAX}`);

    const filter = { startdate: '2000-01-01' };
    const total = (await s.call('as.m.exam.getCUserReportPageList', { ...filter, pageSize: 1 }, hospital)).data.total as number;
    expect(total).toBeGreaterThan(REPORT_ZIP_INLINE_MAX);
    const queued = await s.call('as.m.exam.queueReportPdfZip', filter, hospital);
    expect(queued.errorCode, queued.errorMsg).toBe(0);
    expect(queued.data.count).toBe(Math.min(total, 500));
    const page = async (token = hospital) => (await s.call('as.m.exam.getReportPdfZipPage', { page: 1, pageSize: 10 }, token)).data;
    expect((await page()).rows[0]).toMatchObject({ exportid: queued.data.exportid, state: 'queued', progress: 0, printed: 0 });
    // A sibling institution neither sees nor downloads it.
    expect((await page(school)).rows.map((r: { exportid: string }) => r.exportid)).not.toContain(queued.data.exportid);
    expect((await s.call('as.m.exam.downloadReportPdfZip', { exportid: queued.data.exportid }, school)).errorCode).toBe(ErrorCode.notFound);
    // Not ready yet.
    expect((await s.call('as.m.exam.downloadReportPdfZip', { exportid: queued.data.exportid }, hospital)).errorCode).toBe(ErrorCode.conflict);

    await s.jobs.runDue();
    expect((await page()).rows[0]).toMatchObject({ state: 'done', progress: 100, printed: queued.data.count });
    const zip = await s.raw('as.m.exam.downloadReportPdfZip', JSON.stringify({ exportid: queued.data.exportid }), { token: hospital });
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(await unzipNames(zip.rawPayload)).toHaveLength(queued.data.count);
    expect(fake.begun).toBe(queued.data.count);
  }, 180_000); // 21 report documents zipped: on a loaded 2-core machine that took over a minute

  it('cancels a background export: queued, it prints nothing; running, it stops before the next PDF', async () => {
    const filter = { startdate: '2000-01-01' };
    const a = (await s.call('as.m.exam.queueReportPdfZip', filter, hospital)).data.exportid as string;
    expect((await s.call('as.m.exam.cancelReportPdfZip', { exportid: a }, school)).errorCode).toBe(ErrorCode.notFound);
    expect((await s.call('as.m.exam.cancelReportPdfZip', { exportid: a }, hospital)).errorCode).toBe(0);
    await s.jobs.runDue();
    expect(fake.begun).toBe(0);
    const rows = (await s.call('as.m.exam.getReportPdfZipPage', {}, hospital)).data.rows as { exportid: string; state: string }[];
    expect(rows.find((r) => r.exportid === a)?.state).toBe('cancelled');

    // Running: cancelled while its third PDF prints.
    fake.auto = false;
    const b = (await s.call('as.m.exam.queueReportPdfZip', filter, hospital)).data.exportid as string;
    const run = s.jobs.runDue();
    await fake.until(() => fake.begun === 1);
    fake.release();
    await fake.until(() => fake.begun === 2);
    fake.release();
    await fake.until(() => fake.begun === 3);
    expect((await s.call('as.m.exam.cancelReportPdfZip', { exportid: b }, hospital)).errorCode).toBe(0);
    fake.release();
    await run;
    expect(fake.begun).toBe(3);
    const after = (await s.call('as.m.exam.getReportPdfZipPage', {}, hospital)).data.rows as { exportid: string; state: string; printed: number }[];
    expect(after.find((r) => r.exportid === b)).toMatchObject({ state: 'cancelled', printed: 2 });
    expect(fake.closed).toBe(1);
    // Both slots are free: a new export is not busy.
    fake.auto = true;
    expect((await s.raw('as.m.exam.exportReportPdfZip', JSON.stringify({ cusercode }), { token: hospital })).statusCode).toBe(200);
  });
});
