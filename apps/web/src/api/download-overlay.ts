import { useSyncExternalStore } from 'react';

/**
 * How many downloads are running, and how far the latest has come: the shell shows a
 * full-screen overlay while any is, with the bytes received (and the share of them when the
 * server said how many there are).
 */
let running = 0;
export interface DownloadProgress {
  received: number;
  /** From Content-Length; null when the server streams without one. */
  total: number | null;
}
let progress: DownloadProgress | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

export function downloadStarted() {
  running += 1;
  progress = null;
  notify();
}

export function downloadProgressed(received: number, total: number | null) {
  progress = { received, total };
  notify();
}

export function downloadFinished() {
  running = Math.max(0, running - 1);
  if (running === 0) progress = null;
  notify();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useDownloading = () => useSyncExternalStore(subscribe, () => running > 0);
/** Null while the server is still preparing the file (nothing received yet). */
export const useDownloadProgress = () => useSyncExternalStore(subscribe, () => progress);

/** Reads a response body to a Blob, reporting each chunk received. */
export async function readWithProgress(response: Response, onProgress = downloadProgressed): Promise<Blob> {
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const type = response.headers.get('content-type') ?? '';
  if (!response.body) return response.blob();
  const reader = response.body.getReader();
  const chunks: BlobPart[] = [];
  let received = 0;
  onProgress(0, total);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as BlobPart);
    received += value.byteLength;
    onProgress(received, total);
  }
  return new Blob(chunks, { type });
}
