import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { CHROMIUM_ARGS } from './apps/server/src/kit/pdf.js';

/**
 * Browser tests against the REAL server, compiled as it is deployed, serving the built console
 * (`npm run test:e2e` builds both first; tsx would compile the server again at every start and
 * run it slower on a machine the browsers already keep busy). Several engineers run at once: each picks its own E2E_PORT; every run gets a fresh
 * embedded database in a temp folder named after the port. Never run `playwright install`:
 * the system Chromium is used.
 */
const port = Number(process.env.E2E_PORT ?? 4173);
/**
 * Debian's chromium-headless-shell (the old headless mode, what Playwright itself runs headless)
 * when installed: it renders pages as Chromium does without the full browser's UI and compositor
 * work. .ci/run installs it; otherwise the system Chromium (CHROMIUM_PATH).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium =
  process.env.E2E_CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : (process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'));
const dataDir = path.join(os.tmpdir(), `xinli-e2e-${port}`);
/**
 * V8 in the test browser stops at its baseline compiler (Sparkplug): a test's page lives a few
 * seconds, and optimising its code (Maglev, TurboFan) cost more CPU than it saved. Touring the
 * school's 28 menu pages took Chromium 24.6–27.1 s of CPU instead of 34.5–35.2 (three rounds
 * each, 2026-11-29), and less wall time. E2E_JS_FLAGS sets others ('' for V8's own).
 */
const jsFlags = process.env.E2E_JS_FLAGS ?? '--max-opt=1';
// The config is loaded again in every worker process: only the first load (the runner, before
// it starts the server) may empty the folder, or the workers would delete the live database.
if (!process.env.XINLI_E2E_DATA_READY) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.env.XINLI_E2E_DATA_READY = '1';
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // A page's first data can take several seconds on a loaded 2-core machine; a wait that never
  // ends still fails.
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: path.join(os.tmpdir(), `xinli-e2e-results-${port}`),
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    // A trace records every action's page as it goes, and CI keeps nothing of a run but its log:
    // there it is off (list-columns took 3.4 min without it, 4.0 with), here it is kept for a
    // test that failed. E2E_TRACE sets another mode.
    trace: (process.env.E2E_TRACE as 'off' | 'retain-on-failure' | undefined) ?? (process.env.CI ? 'off' : 'retain-on-failure'),
    screenshot: 'only-on-failure',
    // A click or fill that cannot happen (an overlay over its target, a menu that closed) fails
    // naming its step, rather than waiting out the test's whole minute.
    actionTimeout: 30_000,
    // As a user who asked the system for less motion: the console then opens and closes dialogs
    // without animating (theme.ts), so no click lands on a dialog still fading, and the 2-core
    // machine does not paint animation frames nobody watches.
    reducedMotion: 'reduce',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromium,
          args: [...CHROMIUM_ARGS, ...(jsFlags ? [`--js-flags=${jsFlags}`] : [])],
        },
      },
    },
  ],
  webServer: {
    command: 'node apps/server/dist/main.js',
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      XINLI_DEMO: '1',
      LOG_LEVEL: 'warn',
      // Every test signs in: lift the per-address sign-in rate limit for the test server.
      LOGIN_RATE_PER_MINUTE: '100000',
    },
  },
});
