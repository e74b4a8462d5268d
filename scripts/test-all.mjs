#!/usr/bin/env node
/* global console, process */
// `npm test`: the build, unit/API tests (vitest) with the type-check and lint (the layering rules
// among them) beside them, browser tests (Playwright), then one closing line "tests: N passed,
// N failed" summed over both runners. Any failing step fails the run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-results-'));
const vitestJson = path.join(dir, 'vitest.json');
/**
 * The browser tests run in E2E_SHARDS shards at once (default 2), each its own Playwright run with
 * its own server and fresh database on its own port (playwright.config.ts). One run leaves the two
 * cores partly idle (the page waits on its server and the server on the page): side by side, two
 * took 15.4 min where one took 19.3. Shards share no state, unlike workers of one run would (the
 * tests change the demo data they read).
 */
const shards = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const e2ePort = Number(process.env.E2E_PORT ?? 4173);
const playwrightJson = (i) => path.join(dir, `playwright-${i}.json`);

/** A step with its output shown as it goes; resolves true when it passed. */
function run(title, cmd, args) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  return new Promise((resolve) => spawn(cmd, args, { stdio: 'inherit' }).on('close', (code) => resolve(code === 0)));
}

/**
 * The spec files in `shards` groups of about equal time (e2e/timings.json, longest first onto the
 * lightest group). Playwright's own --shard splits by test count in file order, which put the
 * longest files into one shard: it ran twice as long as the other.
 */
function splitSpecs() {
  const { _comment, ...seconds } = JSON.parse(fs.readFileSync('e2e/timings.json', 'utf8'));
  const files = fs.readdirSync('e2e').filter((f) => f.endsWith('.spec.ts'));
  const cost = (f) => seconds[f] ?? 20;
  const groups = Array.from({ length: shards }, () => ({ files: [], total: 0 }));
  for (const f of files.sort((a, b) => cost(b) - cost(a))) {
    const lightest = groups.reduce((a, b) => (b.total < a.total ? b : a));
    lightest.files.push(`e2e/${f}`);
    lightest.total += cost(f);
  }
  // An empty group would be a run without file filters: every test again.
  return groups.map((g) => g.files).filter((g) => g.length);
}

/** The shards of the browser tests at once, each line prefixed with its shard; true when all passed. */
async function browserShards() {
  const groups = shards > 1 ? splitSpecs() : [[]];
  console.log(`\n=== browser tests: npx playwright test, ${groups.length} shard(s) at once`);
  const one = (i) =>
    new Promise((resolve) => {
      const args = ['playwright', 'test', '--reporter=list,json', ...groups[i - 1]];
      const child = spawn('npx', args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, E2E_PORT: String(e2ePort + i - 1), PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson(i) },
      });
      const prefix = groups.length > 1 ? `[${i}/${groups.length}] ` : '';
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop();
          for (const line of lines) console.log(prefix + line);
        });
        stream.on('end', () => rest && console.log(prefix + rest));
      }
      child.on('close', (code) => resolve(code === 0));
    });
  const results = await Promise.all(groups.map((_, i) => one(i + 1)));
  return results.every(Boolean);
}

/**
 * A step run beside another: its output is kept and printed once it ends, so that it does not
 * interleave with the other's; resolves true when it passed.
 */
function runQuietly(title, cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (out += b));
    child.on('close', (code) => {
      console.log(`\n=== ${title}: ${cmd} ${args.join(' ')} (run beside the unit and API tests)\n${out.trimEnd()}`);
      resolve(code === 0);
    });
  });
}

const steps = [];
// First, as the browser tests and the API tests of the compiled server expect it in place.
steps.push(['build', await run('console build', 'npm', ['run', 'build'])]);
// The type-check and lint run beside the unit and API tests, which leave part of a core idle
// while they wait on PostgreSQL and on the processes they start: on the 2-core machine the three
// took 390 s together where the tests alone took 379 and all three one after another 428.
const typecheckAndLint = (async () => [
  ['typecheck', await runQuietly('type-check', 'npm', ['run', 'typecheck'])],
  ['lint', await runQuietly('lint', 'npm', ['run', 'lint'])],
])();
steps.push([
  'unit and API',
  await run('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]),
]);
steps.push(...(await typecheckAndLint));
steps.push(['browser', await browserShards()]);

let passed = 0;
let failed = 0;
if (fs.existsSync(vitestJson)) {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  // Named again at the end: CI keeps only the tail of a long log.
  const byPart = new Map();
  for (const file of v.testResults ?? []) {
    const relative = path.relative(process.cwd(), file.name);
    const [top, sub] = relative.split(path.sep);
    const part = top === 'apps' || top === 'packages' ? `${top}/${sub}` : top;
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') console.log(`failed: ${relative} > ${t.fullName ?? t.title}`);
      const n = byPart.get(part) ?? { passed: 0, skipped: 0 };
      if (t.status === 'passed') n.passed++;
      else if (t.status !== 'failed') n.skipped++;
      byPart.set(part, n);
    }
  }
  // Per part, so two runs whose totals differ show where.
  const parts = [...byPart]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([part, n]) => `${part} ${n.passed}${n.skipped ? ` (+${n.skipped} skipped)` : ''}`);
  console.log(`unit and API tests passed: ${parts.join(', ')}`);
  const slowest = (v.testResults ?? [])
    .map((file) => [path.relative(process.cwd(), file.name), Math.round((file.endTime - file.startTime) / 1000)])
    .sort(([, a], [, b]) => b - a)
    .slice(0, 12);
  console.log(`slowest unit and API files, seconds: ${slowest.map(([f, s]) => `${f} ${s}`).join(', ')}`);
}
/** The time a Playwright suite's tests took, its nested suites' included. */
const suiteMs = (suite) =>
  (suite.specs ?? []).reduce(
    (ms, spec) => ms + spec.tests.reduce((t, test) => t + test.results.reduce((r, res) => r + res.duration, 0), 0),
    0,
  ) + (suite.suites ?? []).reduce((ms, child) => ms + suiteMs(child), 0);
const fileSeconds = {};
for (let i = 1; i <= shards; i++) {
  if (!fs.existsSync(playwrightJson(i))) continue;
  const p = JSON.parse(fs.readFileSync(playwrightJson(i), 'utf8'));
  passed += p.stats?.expected ?? 0;
  failed += p.stats?.unexpected ?? 0;
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.ok) console.log(`failed: ${[...trail, spec.title].join(' > ')}`);
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
  };
  for (const suite of p.suites ?? []) {
    walk(suite, [suite.title]);
    fileSeconds[suite.file ?? suite.title] = Math.round(suiteMs(suite) / 1000);
  }
}
// Each browser file's seconds in this run, longest first: what e2e/timings.json is refreshed from.
const longest = Object.entries(fileSeconds).sort(([, a], [, b]) => b - a);
if (longest.length) console.log(`browser files, seconds: ${JSON.stringify(Object.fromEntries(longest))}`);
const broken = steps.filter(([, ok]) => !ok).map(([name]) => name);
if (broken.length) console.log(`\nfailed steps: ${broken.join(', ')}`);
if (broken.length && failed === 0) failed = broken.length; // a step that failed before counting tests still fails the run
console.log(`\ntests: ${passed} passed, ${failed} failed`);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(broken.length ? 1 : 0);
