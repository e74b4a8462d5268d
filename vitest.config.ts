import { configDefaults, defineConfig } from 'vitest/config';

/** The server's test files that replace one of its modules (vi.mock): each in a worker of its own. */
const mocking = ['apps/server/src/domains/reports/document/export.test.ts'];
const server = {
  include: ['apps/server/src/**/*.test.ts'],
  environment: 'node',
  globalSetup: ['apps/server/src/test/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
} as const;

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
          ...server,
          name: 'server',
          exclude: [...configDefaults.exclude, ...mocking],
          // The server's files share each worker's loaded modules instead of loading the whole app
          // again for each of them (about 2 s of CPU a file, 130 files): each file builds its own
          // app and database, and none changes a module's state for the next (those that replace a
          // module, `mocking`, keep a worker to themselves). Measured on one machine, the server's
          // files took 565 s of test time isolated and 461 s shared, with 40 % less CPU.
          isolate: false,
        },
      },
      {
        test: { ...server, name: 'server-mocking', include: mocking },
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
