/* global process, console */
// `npm start`: build the console and the server only when their sources changed since the last
// build. A hash of every input file's path and content is kept beside the builds
// (apps/server/dist/.build-stamp); when it matches and both builds are there, the build is skipped.
// Content, not mtimes: a checkout or a copy touches mtimes without changing anything.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

const root = path.resolve(import.meta.dirname, '..');

/** What the two builds read: sources, their configs and the locked dependency versions. */
export const INPUTS = [
  'package.json',
  'package-lock.json',
  'packages/contract',
  'apps/server/src',
  'apps/server/scripts',
  'apps/server/package.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/respondent.html',
  'apps/web/cashier.html',
  'apps/web/vite.config.ts',
  'apps/web/tsconfig.json',
  'apps/web/package.json',
];
/** The outputs; a build is needed when one is missing. */
export const OUTPUTS = ['apps/web/dist/index.html', 'apps/server/dist/main.js'];
export const STAMP = 'apps/server/dist/.build-stamp';

const SKIP = new Set(['node_modules', 'dist']);
// Tests do not go into a build; editing one should not cost a rebuild.
const isTest = (name) => /\.test\.tsx?$/.test(name);

function listFiles(dir, rel, out) {
  const full = path.join(dir, rel);
  if (!fs.existsSync(full)) return;
  if (!fs.statSync(full).isDirectory()) {
    out.push(rel);
    return;
  }
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || (entry.isFile() && isTest(entry.name))) continue;
    listFiles(dir, path.posix.join(rel, entry.name), out);
  }
}

/** sha256 over the sorted input files' paths and contents, below `dir`. */
export function inputsHash(dir, inputs = INPUTS) {
  const files = [];
  for (const input of inputs) listFiles(dir, input, files);
  const hash = crypto.createHash('sha256');
  for (const file of files.sort()) {
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(dir, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** True when every output exists and the stamp holds the inputs' current hash. */
export function isFresh(dir, { inputs = INPUTS, outputs = OUTPUTS, stamp = STAMP } = {}) {
  if (!outputs.every((file) => fs.existsSync(path.join(dir, file)))) return false;
  const stampFile = path.join(dir, stamp);
  return fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8').trim() === inputsHash(dir, inputs);
}

export function writeStamp(dir, { inputs = INPUTS, stamp = STAMP } = {}) {
  fs.mkdirSync(path.dirname(path.join(dir, stamp)), { recursive: true });
  fs.writeFileSync(path.join(dir, stamp), inputsHash(dir, inputs) + '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  if (isFresh(root)) {
    console.log('build is up to date (sources unchanged since the last build): skipped; `npm run build` forces one');
  } else {
    // The hash is taken before building, so an edit made during the build triggers the next one.
    const hash = inputsHash(root);
    const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
    fs.writeFileSync(path.join(root, STAMP), hash + '\n');
  }
}
