import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import yauzl from 'yauzl';
import { ErrorCode, REPORT_ZIP_INLINE_MAX, REPORT_ZIP_MAX } from '@xinli/contract';
import { testConfig } from '../../../config.js';
import { engines, startTestServer, type TestServer } from '../../../test/harness.js';
import { auditLog } from '../../audit/tables.js';

/**
 * The printable report through the API, on the demo's months of reports: the HTML document, one
 * PDF, the zip of a filter, tenant isolation, the audit, a server without Chromium, and one real
 * PDF looked at page by page (pdfinfo for the page size, pdftoppm for blank pages).
 */

function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

/** Pages of a PDF as 8-bit grey images (PGM, parsed here: no image library needed). */
function pagesOf(pdf: Buffer, dir: string, name: string) {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  execFileSync('pdftoppm', ['-gray', '-r', '30', file, path.join(dir, name)]);
  const images = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.pgm'))
    .sort()
    .map((f) => {
      const data = fs.readFileSync(path.join(dir, f));
      // P5 header: magic, width, height, maxval, each followed by one whitespace byte.
      const header = data.toString('latin1', 0, 40).match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
      const [width, height] = [Number(header[1]), Number(header[2])];
      // The body only: Chromium's footer (page numbers) is in the bottom margin of every page.
      const body = data.subarray(header[0].length, header[0].length + width * (height - Math.round((height * 20) / 297)));
      let ink = 0;
      for (const p of body) if (p < 240) ink++;
      return { width, height, ink: ink / body.length };
    });
  return { pages: Number(info.match(/^Pages:\s+(\d+)/m)![1]), size: info.match(/^Page size:\s+(.*)$/m)![1]!, images };
}

describe.each(engines())('report documents on %s', (engine) => {
  let s: TestServer;
  let hospital: string, school: string, provider: string;
  /** A hospital person's latest PHQ-9 report with earlier PHQ-9 results, and that person. */
  let reportid: string, cusercode: string, personReports: number;

  beforeAll(async () => {
    s = await startTestServer(engine, { demoReports: true, config: { chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' } });
    hospital = (await s.login('hospital')).token;
    const list = await s.call('as.m.exam.getCUserReportPageList', { formcode: 'PHQ9', pageSize: 200 }, hospital);
    const byPerson = new Map<string, string[]>();
    for (const r of list.data.rows as { cusercode: string; reportid: string }[])
      byPerson.set(r.cusercode, [...(byPerson.get(r.cusercode) ?? []), r.reportid]);
    const [code, ids] = [...byPerson].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))[0]!;
    expect(ids.length).toBeGreaterThanOrEqual(2);
    [cusercode, reportid] = [code, ids[0]!];
    personReports = (await s.call('as.m.exam.getCUserReportPageList', { cusercode, pageSize: 1 }, hospital)).data.total;
  });
  beforeEach(async () => {
    [hospital, school, provider] = await Promise.all(['hospital', 'school', 'provider'].map(async (u) => (await s.login(u)).token));
  });
  afterAll(() => s?.close());

  const audited = async (action: string) =>
    (
      await s.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.result, 'ok')))
    ).map((a) => a.detail);
  const download = (name: string, body: Record<string, unknown>, token: string, lang = 'zh-CN') =>
    s.raw(name, JSON.stringify(body), { token, 'accept-language': lang });

  it('answers the document of a report in scope, with the person unmasked, and audits the read; a sibling institution’s report is not found', async () => {
    // A staff comment is user input: it is printed, escaped.
    expect((await s.call('as.m.exam.updateReport', { reportid, comment: '已电话随访 <b>家属</b> & 本人' }, hospital)).errorCode).toBe(0);
    const detail = (await s.call('as.m.exam.getCUserReport', { reportid }, hospital)).data;
    const res = await s.call('as.m.exam.getReportDocument', { reportid }, hospital);
    expect(res.errorCode, res.errorMsg).toBe(0);
    expect(res.data.pdf).toBe(true);
    expect(res.data.html).toContain(`<td>${detail.realname}</td>`);
    expect(res.data.html).toContain('PHQ-9 抑郁程度与第 9 题历史');
    expect(res.data.html).toContain(detail.insname);
    expect(res.data.html).toContain('已电话随访 &lt;b&gt;家属&lt;/b&gt; &amp; 本人');
    expect(await audited('as.m.exam.getReportDocument')).toContainEqual(expect.objectContaining({ reportid, cusercode, target: 'I0002' }));

    // The provider over the hospital reads it too, in English when asked.
    const en = await s.call('as.m.exam.getReportDocument', { reportid }, provider, { 'accept-language': 'en-US' });
    expect(en.data.html).toContain('Psychological Assessment Report');

    for (const [name, body] of [
      ['as.m.exam.getReportDocument', { reportid }],
      ['as.m.exam.exportReportPdf', { reportid }],
      ['as.m.exam.exportReportPdfZip', { cusercode }],
    ] as const) {
      expect((await s.call(name, body, school)).errorCode, name).toBe(ErrorCode.notFound);
    }
  });

  it('a server without Chromium offers no PDF and says so in the caller’s language', async () => {
    const app = await s.appOnTestClock({ config: testConfig({ chromiumPath: path.join(os.tmpdir(), 'no-such-chromium') }) });
    try {
      const call = async (name: string, body: object, lang: string, token = hospital) =>
        (
          await app.inject({
            method: 'POST',
            url: `/api/${name}/1.0.0/action`,
            payload: body,
            headers: { token, 'accept-language': lang },
          })
        ).json();
      expect((await call('as.m.exam.getReportDocument', { reportid }, 'zh-CN')).data.pdf).toBe(false);
      for (const [name, body] of [
        ['as.m.exam.exportReportPdf', { reportid }],
        ['as.m.exam.exportReportPdfZip', { cusercode }],
      ] as const) {
        const zh = await call(name, body, 'zh-CN');
        expect(zh.errorCode).toBe(ErrorCode.conflict);
        expect(zh.errorMsg).toContain('本服务器未安装 Chromium');
        expect((await call(name, body, 'en-US')).errorMsg).toContain('This server has no Chromium');
        // Scope comes first: another institution's report or person is "not found" here too.
        expect((await call(name, body, 'zh-CN', school)).errorCode).toBe(ErrorCode.notFound);
      }
    } finally {
      await app.close();
    }
  });

  it('zips the PDFs of the filtered reports, audits which, and refuses an empty or too large filter', async () => {
    const res = await download('as.m.exam.exportReportPdfZip', { cusercode }, hospital);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const files = await unzip(res.rawPayload);
    expect(files.size).toBe(personReports);
    for (const [name, pdf] of files) {
      expect(name).toMatch(/\.pdf$/);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const [audit] = (await audited('as.m.exam.exportReportPdfZip')) as { count: number; reportids: string[] }[];
    expect(audit!.count).toBe(personReports);
    expect(audit!.reportids).toContain(reportid);

    const none = await s.call('as.m.exam.exportReportPdfZip', { realname: '没有这个人' }, hospital);
    expect([none.errorCode, none.errorMsg]).toEqual([ErrorCode.validation, '没有符合筛选条件的报告']);
    const all = (await s.call('as.m.exam.getCUserReportPageList', { pageSize: 1 }, provider)).data.total;
    expect(all).toBeGreaterThan(REPORT_ZIP_MAX);
    const many = await s.call('as.m.exam.queueReportPdfZip', {}, provider, { 'accept-language': 'en-US' });
    expect([many.errorCode, many.errorMsg]).toEqual([
      ErrorCode.validation,
      `${all} reports match; at most ${REPORT_ZIP_MAX} can be exported at once. Narrow the filter (dates or institution).`,
    ]);
    // Above the inline limit the download says to export in the background.
    const inline = await s.call('as.m.exam.exportReportPdfZip', {}, provider);
    expect([inline.errorCode, inline.errorMsg]).toEqual([
      ErrorCode.validation,
      `符合条件的报告有 ${all} 份，超过 ${REPORT_ZIP_INLINE_MAX} 份请使用“后台导出”，完成后在导出列表中下载`,
    ]);
  });

  it('answers another caller while Chromium prints a zip (prints the latencies it measured), and stops printing when the client goes away', async () => {
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}`;
    const exporting = (token: string) => {
      const req = http.request(`${url}/api/as.m.exam.exportReportPdfZip/1.0.0/action`, { method: 'POST', headers: { 'content-type': 'application/json', token } });
      const done = new Promise<{ status: number; bytes: number }>((resolve, reject) => {
        req.on('response', (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => resolve({ status: res.statusCode!, bytes }));
          res.on('error', reject);
        });
        req.on('error', reject);
      });
      req.end(JSON.stringify({ cusercode }));
      return { req, done };
    };
    const run = exporting(hospital);
    let finished = false;
    void run.done.then(() => (finished = true));
    // Pings from another institution while the zip prints: each is answered; their latencies are printed, not asserted.
    const latencies: number[] = [];
    let answeredDuring = 0;
    while (!finished && latencies.length < 20) {
      const t0 = performance.now();
      expect((await s.call('as.m.exam.getCUserReportPageList', { pageSize: 1 }, school)).errorCode).toBe(0);
      latencies.push(performance.now() - t0);
      if (!finished) answeredDuring++;
    }
    const { status, bytes } = await run.done;
    expect(status).toBe(200);
    expect(bytes).toBeGreaterThan(1000);
    expect(answeredDuring).toBeGreaterThan(0);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `[pdf export] ${personReports} PDFs: ${latencies.length} pings from another institution, ${answeredDuring} answered while printing; median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms`,
    );

    // A client that leaves after the first bytes: the printer is closed and the slot freed, so the next export runs.
    const gone = exporting(hospital);
    await new Promise<void>((resolve) => gone.req.on('response', (res) => res.once('data', () => resolve())));
    gone.req.destroy();
    gone.done.catch(() => {});
    let again = await s.raw('as.m.exam.exportReportPdfZip', JSON.stringify({ cusercode }), { token: hospital });
    // The aborted export may still be closing its page for a moment: busy until then, never longer than one PDF.
    for (let i = 0; again.statusCode === 429 && i < 20; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      again = await s.raw('as.m.exam.exportReportPdfZip', JSON.stringify({ cusercode }), { token: hospital });
    }
    expect(again.statusCode).toBe(200);
  }, 180_000);

  it('prints a PHQ-9 report with its history on whole A4 pages, none blank, in Chinese and English', async () => {
    // REPORT_PDF_DIR keeps the PDFs and pages for a person to look at.
    const dir = process.env.REPORT_PDF_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'report-pdf-'));
    // A long follow-up note, as staff write them, so the comments run over a page break.
    const note = '随访记录：本人自述近两周睡眠较差、食欲下降，工作压力较大；已建议家属陪同就诊，并约定一周后再次电话随访。'.repeat(18);
    expect((await s.call('as.m.exam.updateReport', { reportid, comment: note }, hospital)).errorCode).toBe(0);
    fs.mkdirSync(dir, { recursive: true });
    try {
      for (const lang of ['zh-CN', 'en-US']) {
        const res = await download('as.m.exam.exportReportPdf', { reportid }, hospital, lang);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(`${reportid}.pdf`);
        const { pages, size, images } = pagesOf(res.rawPayload, dir, lang);
        expect(pages).toBeGreaterThanOrEqual(2);
        // A4 is 595.28 × 841.89 points (Chromium rounds to 1/100 inch).
        const [w, h] = size.split(' x ').map(parseFloat) as [number, number];
        expect(Math.abs(w - 595.28) < 1 && Math.abs(h - 841.89) < 1, size).toBe(true);
        expect(images).toHaveLength(pages);
        for (const [k, page] of images.entries()) {
          expect([page.width, page.height], `page ${k + 1}`).toEqual([248, 351]);
          // A blank page has no ink; a page of text and tables has a few per cent.
          expect(page.ink, `${lang} page ${k + 1} is blank`).toBeGreaterThan(0.005);
        }
      }
      expect(await audited('as.m.exam.exportReportPdf')).toContainEqual(expect.objectContaining({ reportid, cusercode }));
    } finally {
      if (!process.env.REPORT_PDF_DIR) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
