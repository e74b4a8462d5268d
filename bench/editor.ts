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

/**
 * The scales compared: the first is the baseline. `items` is the last item card the first page
 * shows, `indicators` how many indicator cards there are.
 */
const SCALES = [
  { formcode: 'GAD7', items: 7, indicators: 1 },
  { formcode: 'SCL90', items: 20, indicators: 15 },
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

type Times = { answered: number; items: number; indicators: number; allIndicators: number };

/**
 * Opens a scale's editor from the library: ms until it takes a click on a tab, until its items
 * show, until its indicators tab lets go of a click on another tab, and until all its indicator
 * cards are drawn.
 */
async function open(page: Page, scale: (typeof SCALES)[number]): Promise<Times> {
  await page.goto(`${base}/evaluating/evaluationScale`);
  const row = page.locator('tr', { hasText: scale.formcode }).first();
  await row.waitFor();
  const editor = page.getByTestId('scale-editor');
  const tab = (name: string) => editor.getByRole('tab', { name, exact: true }).click({ timeout: 300_000 });
  let t = performance.now();
  const since = () => {
    const now = performance.now();
    const ms = now - t;
    t = now;
    return ms;
  };
  await row.getByRole('button', { name: /(查看|View)$/ }).click();
  await tab('危机条目、效度与筛查');
  const answered = since();
  await tab('题目');
  await editor.getByTestId(`question-${scale.items}`).waitFor({ timeout: 300_000 });
  const items = since();
  await tab('指标与分段');
  await tab('基本信息');
  const indicators = since();
  await tab('指标与分段');
  await editor.getByTestId(`ind${scale.indicators - 1}-items`).waitFor({ timeout: 300_000 });
  return { answered, items, indicators, allIndicators: indicators + since() };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const stop = await startServer();
const browser = await chromium.launch({ executablePath });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', reducedMotion: 'reduce' });
  await page.goto(`${base}/login`);
  await fillSignIn(page, 'school');
  await page.getByTestId('main-layout').waitFor();
  const times = new Map(SCALES.map((s) => [s.formcode, [] as Times[]]));
  for (let round = 0; round < rounds; round++) for (const scale of SCALES) times.get(scale.formcode)!.push(await open(page, scale));
  console.log(`scale editor, ${rounds} openings of each in turns (${path.relative(process.cwd(), root) || '.'}), median ms:`);
  const of = (code: string, k: keyof Times) => median(times.get(code)!.map((t) => t[k]));
  const baseline = SCALES[0]!.formcode;
  const figure = (code: string, k: keyof Times) =>
    `${of(code, k).toFixed(0).padStart(6)} ms (x${(of(code, k) / of(baseline, k)).toFixed(2)})`;
  for (const { formcode: code } of SCALES)
    console.log(
      `  ${code.padEnd(6)} answers a click ${figure(code, 'answered')}; its items shown ${figure(code, 'items')};` +
        ` its indicators let go of a click ${figure(code, 'indicators')}, all drawn ${figure(code, 'allIndicators')}`,
    );
  console.log(`  (x: against ${baseline}, opened the same way in the same run)`);
} finally {
  await browser.close();
  stop();
}
