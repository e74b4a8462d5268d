import { useSyncExternalStore } from 'react';

/** SPEC §4 device: below 992px the console is in mobile mode (the sidebar becomes a drawer). */
export const MOBILE_QUERY = '(max-width: 991.98px)';

const subscribe = (cb: () => void) => {
  const mq = window.matchMedia(MOBILE_QUERY);
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
};

export type Device = 'desktop' | 'mobile';

export const useDevice = (): Device => useSyncExternalStore(subscribe, () => (window.matchMedia(MOBILE_QUERY).matches ? 'mobile' : 'desktop'));
