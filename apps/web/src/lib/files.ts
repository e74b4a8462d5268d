/**
 * Imports of the scale library carry the file inside the JSON body as base64 (the contract's
 * `{ filename, content }`), so uploads go through the same `call` as everything else.
 */

/** The file's bytes as base64 (without the data-URL prefix). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** About 1 MB of file: what the contract's base64 field can carry. */
export const MAX_IMPORT_BYTES = 1_000_000;

/** Saves a blob as a file: a download's answer, or one made in the browser (the error file of a refused import). */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked later, not at once: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Saves a file the server answered inside JSON as base64 (the error file of an import preview). */
export function saveBase64(base64: string, name: string, type = XLSX_TYPE) {
  saveFile(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type }), name);
}
