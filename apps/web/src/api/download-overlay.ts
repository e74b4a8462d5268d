import { useSyncExternalStore } from 'react';

/** How many downloads are running: the shell shows a full-screen overlay while any is. */
let running = 0;
const listeners = new Set<() => void>();

export function downloadStarted() {
  running += 1;
  listeners.forEach((l) => l());
}

export function downloadFinished() {
  running = Math.max(0, running - 1);
  listeners.forEach((l) => l());
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export const useDownloading = () => useSyncExternalStore(subscribe, () => running > 0);
