import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { inputsHash, isFresh, writeStamp } from './build-if-changed.mjs';

const opts = { inputs: ['src', 'package.json'], outputs: ['dist/out.js'], stamp: 'dist/.build-stamp' };
let dir: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), text);
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-stamp-'));
  write('package.json', '{}');
  write('src/a.ts', 'export const a = 1;');
  write('dist/out.js', 'built');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('npm start skips the build when nothing changed', () => {
  it('is stale before the first stamp and fresh after it', () => {
    expect(isFresh(dir, opts)).toBe(false);
    writeStamp(dir, opts);
    expect(isFresh(dir, opts)).toBe(true);
  });

  it('is stale after a source changes, is added or is removed', () => {
    writeStamp(dir, opts);
    write('src/a.ts', 'export const a = 2;');
    expect(isFresh(dir, opts)).toBe(false);
    writeStamp(dir, opts);
    write('src/deep/b.ts', 'export const b = 1;');
    expect(isFresh(dir, opts)).toBe(false);
    writeStamp(dir, opts);
    fs.rmSync(path.join(dir, 'src/deep/b.ts'));
    expect(isFresh(dir, opts)).toBe(false);
  });

  it('ignores mtimes, tests and node_modules, and is stale when an output is missing', () => {
    writeStamp(dir, opts);
    const later = new Date(Date.UTC(2030, 0, 1));
    fs.utimesSync(path.join(dir, 'src/a.ts'), later, later);
    write('src/a.test.ts', 'test');
    write('src/node_modules/x.js', 'x');
    expect(isFresh(dir, opts)).toBe(true);
    fs.rmSync(path.join(dir, 'dist/out.js'));
    expect(isFresh(dir, opts)).toBe(false);
  });

  it('hashes paths as well as contents', () => {
    const before = inputsHash(dir, opts.inputs);
    fs.renameSync(path.join(dir, 'src/a.ts'), path.join(dir, 'src/b.ts'));
    expect(inputsHash(dir, opts.inputs)).not.toBe(before);
  });
});
