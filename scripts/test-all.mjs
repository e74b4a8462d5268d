#!/usr/bin/env node
/* global console, process */
// `npm test`: type-check, lint (the layering rules among them), unit/API tests (vitest), browser tests (Playwright), then one closing
// line "tests: N passed, N failed" summed over both runners. Any failing step fails the run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-results-'));
const vitestJson = path.join(dir, 'vitest.json');
const playwrightJson = path.join(dir, 'playwright.json');

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

const steps = [];
steps.push(['typecheck', run('type-check', 'npm', ['run', 'typecheck'])]);
steps.push(['lint', run('lint', 'npm', ['run', 'lint'])]);
steps.push(['unit and API', run('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`])]);
steps.push(['build', run('console build', 'npm', ['run', 'build'])]);
steps.push(['browser', run('browser tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson })]);

let passed = 0;
let failed = 0;
if (fs.existsSync(vitestJson)) {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  // Named again at the end: CI keeps only the tail of a long log.
  for (const file of v.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') console.log(`failed: ${path.relative(process.cwd(), file.name)} > ${t.fullName ?? t.title}`);
    }
  }
}
if (fs.existsSync(playwrightJson)) {
  const p = JSON.parse(fs.readFileSync(playwrightJson, 'utf8'));
  passed += p.stats?.expected ?? 0;
  failed += p.stats?.unexpected ?? 0;
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.ok) console.log(`failed: ${[...trail, spec.title].join(' > ')}`);
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
  };
  for (const suite of p.suites ?? []) walk(suite, [suite.title]);
}
const broken = steps.filter(([, ok]) => !ok).map(([name]) => name);
if (broken.length) console.log(`\nfailed steps: ${broken.join(', ')}`);
if (broken.length && failed === 0) failed = broken.length; // a step that failed before counting tests still fails the run
console.log(`\ntests: ${passed} passed, ${failed} failed`);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(broken.length ? 1 : 0);
