import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const serverSrc = 'apps/server/src';
const root = path.dirname(fileURLToPath(import.meta.url));
/**
 * The test files under `src` that replace one of its modules (vi.mock, vi.doMock): found by reading
 * them, so that a new one cannot land among the files sharing their modules, where its mock would
 * not replace a module another file had already loaded.
 */
const mockingIn = (src: string) =>
  fs
    .readdirSync(path.join(root, src), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.test\.tsx?$/.test(f) && /\bvi\.(do)?[mM]ock\(/.test(fs.readFileSync(path.join(root, src, f), 'utf8')))
    .map((f) => `${src}/${f.split(path.sep).join('/')}`);
const mocking = mockingIn(serverSrc);
const webMocking = mockingIn('apps/web/src');
const server = {
  include: [`${serverSrc}/**/*.test.ts`],
  environment: 'node',
  globalSetup: ['apps/server/src/test/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
} as const;

const web = {
  include: ['apps/web/src/**/*.test.{ts,tsx}'],
  environment: 'jsdom',
  setupFiles: ['apps/web/src/test/setup.ts'],
  // A loaded CI machine renders antd in jsdom several times slower than a quiet one.
  testTimeout: 60_000,
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
          // module, `mocking`, run isolated in a project of their own). Measured on one machine, the
          // server's files took 565 s of test time isolated and 461 s shared, with 40 % less CPU.
          isolate: false,
        },
      },
      {
        test: { ...server, name: 'server-mocking', include: mocking },
      },
      {
        // As the server's: the console's files share each worker's loaded modules (antd, React,
        // the pages) instead of loading them again in each file's jsdom; those that replace a
        // module run isolated. Alone on one machine: 197 s → 145–169 s, CPU 5.8 → 4.3–5.0 min.
        test: { ...web, name: 'web', exclude: [...configDefaults.exclude, ...webMocking], isolate: false },
      },
      {
        test: { ...web, name: 'web-mocking', include: webMocking },
      },
    ],
  },
});
