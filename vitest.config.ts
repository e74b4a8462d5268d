import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One worker per core, not vitest's default of one fewer: the API tests spend much of their
    // time waiting on PostgreSQL, another process. On the 2-core CI machine the run took 1,863 s
    // with one worker and 1,243 s with two, every test passing in both.
    maxWorkers: '100%',
    projects: [
      {
        test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' },
      },
      {
        test: { name: 'contract', include: ['packages/contract/src/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/src/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup.ts'],
          // A loaded CI machine renders antd in jsdom several times slower than a quiet one.
          testTimeout: 60_000,
        },
      },
    ],
  },
});
