/**
 * The scale editor in a real browser (`npm run bench:editor`, after `npm run build`): how long a
 * built-in scale's editor takes to answer once opened, and to show its items, for SCL-90 (90
 * items, 15 indicators) against GAD-7 (7 items, 1 indicator) opened the same way in the same run.
 * The ratio says how the editor's cost grows with a scale's size; the baseline absorbs the
 * machine's speed. Runs the compiled server on a fresh demo database and Debian's Chromium, as
 * the browser tests do. BENCH_ROUNDS (default 5) openings of each, in turns; BENCH_ROOT runs
 * another checkout's build (its apps/server/dist and apps/web/dist) for a before/after pair.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { fillSignIn } from '../e2e/support/auth.js';

const root = path.resolve(process.env.BENCH_ROOT ?? path.join(import.meta.dirname, '..'));
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const port = Number(process.env.BENCH_PORT ?? 4391);
const base = `http://127.0.0.1:${port}`;
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const executablePath = fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : (process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');

/** The scales compared: the first is the baseline. `items` is the last item card the first page shows. */
const SCALES = [
  { formcode: 'GAD7', items: 7 },
  { formcode: 'SCL90', items: 20 },
];

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-bench-editor-'));
  const server = spawn('node', [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      XINLI_DEMO: '1',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let waited = 0; ; waited += 500) {
    if (
      await fetch(`${base}/login`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (waited > 240_000 || server.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
  return () => {
    server.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

/** Opens a scale's editor from the library: ms until it takes a click on a tab, and until its items show. */
async function open(page: Page, scale: (typeof SCALES)[number]) {
  await page.goto(`${base}/evaluating/evaluationScale`);
  const row = page.locator('tr', { hasText: scale.formcode }).first();
  await row.waitFor();
  const started = performance.now();
  await row.getByRole('button', { name: /(查看|View)$/ }).click();
  const editor = page.getByTestId('scale-editor');
  await editor.getByRole('tab', { name: '危机条目、效度与筛查' }).click({ timeout: 300_000 });
  const answered = performance.now();
  await editor.getByRole('tab', { name: '题目', exact: true }).click({ timeout: 300_000 });
  await editor.getByTestId(`question-${scale.items}`).waitFor({ timeout: 300_000 });
  return { answered: answered - started, items: performance.now() - answered };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const stop = await startServer();
const browser = await chromium.launch({ executablePath });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', reducedMotion: 'reduce' });
  await page.goto(`${base}/login`);
  await fillSignIn(page, 'school');
  await page.getByTestId('main-layout').waitFor();
  const times = new Map(SCALES.map((s) => [s.formcode, { answered: [] as number[], items: [] as number[] }]));
  for (let round = 0; round < rounds; round++)
    for (const scale of SCALES) {
      const t = await open(page, scale);
      times.get(scale.formcode)!.answered.push(t.answered);
      times.get(scale.formcode)!.items.push(t.items);
    }
  console.log(`scale editor, ${rounds} openings of each in turns (${path.relative(process.cwd(), root) || '.'}), median ms:`);
  const [baseline] = SCALES;
  const of = (code: string) => ({ answered: median(times.get(code)!.answered), items: median(times.get(code)!.items) });
  for (const scale of SCALES) {
    const m = of(scale.formcode);
    const ratio = (k: 'answered' | 'items') => (m[k] / of(baseline!.formcode)[k]).toFixed(2);
    console.log(
      `  ${scale.formcode.padEnd(6)} answers a click ${m.answered.toFixed(0).padStart(6)} ms (x${ratio('answered')} of ${baseline!.formcode})` +
        `   its items shown ${m.items.toFixed(0).padStart(6)} ms (x${ratio('items')})`,
    );
  }
} finally {
  await browser.close();
  stop();
}
