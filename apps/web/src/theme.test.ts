import { afterEach, describe, expect, it, vi } from 'vitest';

/** The theme as loaded on a system that does (or does not) ask for reduced motion. */
async function themeWhere(reduce: boolean) {
  vi.resetModules();
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: reduce && query === '(prefers-reduced-motion: reduce)', media: query }));
  return import('./theme');
}

describe('the theme follows the system’s reduced-motion setting', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('animates by default', async () => {
    const { theme, reducedMotion } = await themeWhere(false);
    expect(reducedMotion).toBe(false);
    expect(theme.token?.motion).toBe(true);
  });

  it('turns antd’s motion off when the user asked for less', async () => {
    const { theme, reducedMotion } = await themeWhere(true);
    expect(reducedMotion).toBe(true);
    expect(theme.token?.motion).toBe(false);
  });
});
