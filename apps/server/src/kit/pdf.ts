import fs from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import type { Message } from '../http/errors.js';

/**
 * Report PDFs from the system Chromium (never a downloaded browser): one browser per executable,
 * launched on the first PDF and reused, closed when the server closes (closePdfBrowsers). Each
 * document is printed in a fresh offline context whose every request is aborted except data:
 * URLs, so a document can reach nothing outside it.
 */

/** Chromium's launch arguments, here and in the browser tests (playwright.config.ts). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const NO_CHROMIUM: Message = {
  zh: '本服务器未安装 Chromium，无法生成 PDF。请使用“打印”，在浏览器的打印窗口中选择“另存为 PDF”。',
  en: 'This server has no Chromium and cannot make PDFs. Use Print and choose “Save as PDF” in the browser’s print window.',
};

/** Whether the configured Chromium exists and may be run. */
export function canMakePdf(chromiumPath: string): boolean {
  try {
    fs.accessSync(chromiumPath, fs.constants.X_OK);
    return fs.statSync(chromiumPath).isFile();
  } catch {
    return false;
  }
}

const browsers = new Map<string, Promise<Browser>>();

function browserAt(chromiumPath: string): Promise<Browser> {
  let browser = browsers.get(chromiumPath);
  if (!browser) {
    // playwright-core is loaded with the first PDF: some 80 MiB of a server's memory that never makes one.
    browser = import('playwright-core').then(({ chromium }) =>
      chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS, headless: true }),
    );
    browsers.set(chromiumPath, browser);
    // A failed launch or a crashed browser is forgotten, so the next PDF tries again.
    browser.then(
      (b) => b.on('disconnected', () => browsers.get(chromiumPath) === browser && browsers.delete(chromiumPath)),
      () => browsers.get(chromiumPath) === browser && browsers.delete(chromiumPath),
    );
  }
  return browser;
}

/** Closes every report browser (the server's onClose hook); the next PDF launches a new one. */
export async function closePdfBrowsers(): Promise<void> {
  const all = [...browsers.values()];
  browsers.clear();
  await Promise.all(all.map(async (b) => (await b.catch(() => null))?.close()));
}

export interface PdfDocument {
  html: string;
  footerTemplate: string;
}

/**
 * A printer for a batch of documents: one offline context, a page per document. `close()` when
 * done (a zip prints hundreds through one printer).
 */
export async function openPrinter(chromiumPath: string) {
  const browser = await browserAt(chromiumPath);
  const context: BrowserContext = await browser.newContext({ offline: true, javaScriptEnabled: false });
  await context.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort('blockedbyclient')));
  return {
    /** One PDF; an abort of `signal` closes its page, so the printing stops where it is and rejects. */
    async pdf(doc: PdfDocument, signal?: AbortSignal): Promise<Buffer> {
      signal?.throwIfAborted();
      const page = await context.newPage();
      const stop = () => void page.close().catch(() => {});
      signal?.addEventListener('abort', stop, { once: true });
      try {
        signal?.throwIfAborted();
        await page.setContent(doc.html, { waitUntil: 'load' });
        return await page.pdf({
          format: 'A4',
          printBackground: true,
          preferCSSPageSize: true,
          displayHeaderFooter: true,
          headerTemplate: '<span></span>',
          footerTemplate: doc.footerTemplate,
        });
      } catch (err) {
        throw signal?.aborted ? signal.reason : err;
      } finally {
        signal?.removeEventListener('abort', stop);
        await page.close().catch(() => {});
      }
    },
    close: () => context.close(),
  };
}
