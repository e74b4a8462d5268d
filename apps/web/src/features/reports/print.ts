/**
 * Prints an HTML document (the server's A4 report document) without leaving the page: a hidden
 * iframe gets it as `srcdoc`, and once loaded its own print() opens the browser's print dialog
 * for that document only. The frame is removed after printing (or after a minute, if the
 * browser never says).
 */
export function printHtml(html: string, doc: Document = document): Promise<void> {
  return new Promise((resolve, reject) => {
    const frame = doc.createElement('iframe');
    frame.setAttribute('aria-hidden', 'true');
    frame.setAttribute('data-testid', 'report-print-frame');
    frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden';
    const cleanup = () => setTimeout(() => frame.remove(), 60_000);
    frame.onload = () => {
      const win = frame.contentWindow;
      if (!win) return reject(new Error('no print frame'));
      win.addEventListener('afterprint', () => frame.remove(), { once: true });
      try {
        win.focus();
        win.print();
        resolve();
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
      cleanup();
    };
    frame.srcdoc = html;
    doc.body.appendChild(frame);
  });
}
