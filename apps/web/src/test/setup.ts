/**
 * Test setup for console component tests (jsdom): antd reads window.matchMedia, which jsdom
 * lacks; tests run in Chinese like the console's default unless they switch.
 */
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy/waitFor give up after 1 s by default: too short for antd in jsdom on a loaded machine
// (one CI run failed a test that passes on a quiet one). A real failure still fails, later.
configure({ asyncUtilTimeout: 10_000 });
// The console adds every message area when it loads (i18n/console.ts); components under test need them too.
import '../i18n/console';

// A test in the node environment (build/sign-in-budget.test.ts) has no window to complete.
const browserLike = typeof window !== 'undefined';

if (browserLike && !window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

afterEach(() => cleanup());

// Tables measure their cells with ResizeObserver, which jsdom lacks.
if (browserLike && !('ResizeObserver' in window)) {
  class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserver });
  Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: ResizeObserver });
}

// jsdom lays nothing out, so it has no scrollIntoView (the scale editor's pager scrolls to its first item).
if (browserLike && !Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => undefined;
