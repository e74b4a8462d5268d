/* global process, console, performance */
// The production build of the server (`npm run build:server`, part of `npm run build`): the server
// compiled to JavaScript in apps/server/dist, so that `npm run serve` runs no TypeScript transpiler.
//   dist/main.js          the server (npm run serve)
//   dist/worker.js        the guarded spreadsheet reader's worker (kit/upload/reader.ts starts
//                         worker.js beside the compiled code)
//   dist/create-admin.js  npm run create-admin
// The workspace contract (@xinli/contract, TypeScript sources) is compiled in; every other package
// stays an import from node_modules. Source maps let stack traces name the TypeScript lines.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const server = path.resolve(import.meta.dirname, '..');
const read = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const deps = (pkg) => Object.keys(pkg.dependencies ?? {});
const external = [...new Set([...deps(read(path.join(server, 'package.json'))), ...deps(read(path.join(server, '../../packages/contract/package.json')))])].filter(
  (name) => !name.startsWith('@xinli/'),
);

const outdir = path.join(server, 'dist');
fs.rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await build({
  entryPoints: {
    main: path.join(server, 'src/main.ts'),
    worker: path.join(server, 'src/kit/upload/worker.ts'),
    'create-admin': path.join(server, 'src/cli/create-admin.ts'),
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external,
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`server compiled to ${path.relative(process.cwd(), outdir)} in ${Math.round(performance.now() - started)} ms`);
