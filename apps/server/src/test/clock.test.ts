import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Tests never read the wall clock. An app built on the real clock next to the harness's fixed one
 * made the suite fail on every day after the harness's date (a session signed in at the test
 * epoch was past its lifetime on the real clock). This guard reads every unit and API test source
 * and names the lines that would bring the wall clock back. A test that starts real server
 * processes (which run on the real clock by nature) says so on the line: `// wall-clock: why`.
 */
export function wallClockUses(source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, i) => {
    const at = `line ${i + 1}`;
    if (/\/\/ wall-clock: \S/.test(line)) return;
    if (/(^|[^.\w])buildApp\(/.test(line)) found.push(`${at}: buildApp() outside the harness (use TestServer.appOnTestClock)`);
    if (/\bnew Date\(\s*\)/.test(line) || /\bDate\.now\(\)/.test(line)) found.push(`${at}: the wall clock (use the harness clock, TEST_EPOCH or testDay())`);
    if (/\bstartServer\(/.test(line) && !/\bfunction startServer\b/.test(line)) {
      const call = source.split('\n').slice(i, i + 3).join(' ');
      if (!/\bnow:/.test(call)) found.push(`${at}: startServer() without a clock (pass { now: testClock().now })`);
    }
  });
  return found;
}

const roots = ['apps/server/src', 'apps/web/src', 'packages/contract/src'].map((r) => path.resolve(import.meta.dirname, '../../../..', r));

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(p);
    return /\.test\.tsx?$/.test(e.name) && p !== import.meta.filename ? [p] : [];
  });
}

describe('tests use the test clock', () => {
  it('finds the mistakes it guards against', () => {
    expect(wallClockUses(`const app = await buildApp({ database, config });`)).toHaveLength(1);
    expect(wallClockUses(`const b = await s.buildApp({ handlers });`)).toEqual([]);
    expect(wallClockUses(`const b = await s.appOnTestClock({ handlers });`)).toEqual([]);
    expect(wallClockUses(`const t = new Date();\nconst u = Date.now();`)).toHaveLength(2);
    expect(wallClockUses(`new Date(TEST_EPOCH)`)).toEqual([]);
    expect(wallClockUses(`seed(db, new Date()); // wall-clock: the child processes run on the real clock`)).toEqual([]);
    expect(wallClockUses(`seed(db, new Date()); // wall-clock:`)).toHaveLength(1);
    expect(wallClockUses(`await startServer(config);`)).toHaveLength(1);
    expect(wallClockUses(`await startServer(config, {\n  now: clock.now,\n});`)).toEqual([]);
  });

  it('holds in every unit and API test file', () => {
    const files = roots.flatMap(testFiles);
    expect(files.length).toBeGreaterThan(20);
    const offences = files.flatMap((f) => wallClockUses(fs.readFileSync(f, 'utf8')).map((o) => `${path.relative(process.cwd(), f)} ${o}`));
    expect(offences).toEqual([]);
  });
});
