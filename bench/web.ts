/**
 * Console bundle check (`npm run bench:web` builds first): from apps/web/dist and its Vite
 * manifest, prints the JavaScript the sign-in page loads (a table chunk -> kB raw and gzip, the
 * total against the 150 kB gzip goal of issue 17), what the console adds after sign-in;
 * exits non-zero if ECharts is among the sign-in page's chunks (DESIGN §7:
 * charts load only with the pages that draw them). The figures are printed, not asserted; the
 * byte budget is guarded by apps/web/src/build/sign-in-budget.test.ts. Also prints what the
 * respondent page (respondent.html, its own entry) loads, and exits non-zero if antd, ECharts or
 * i18next reach it (DESIGN §9).
 *
 * Per-page schemas (issue 17): for the sign-in page, the first page after sign-in (the landing
 * page of the first menu, with the console and layout), the largest page chunk and the page that
 * loads the most schemas, prints the gzip JavaScript and the contract action modules (each
 * domain's zod schemas) it loads, from .vite/contract-modules.json (written by vite.config.ts);
 * exits non-zero if any of them loads the whole catalogue (catalogue.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { menuTable } from '@xinli/contract';

interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const manifestPath = path.join(dist, '.vite/manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`No manifest at ${manifestPath}: run \`npm run build\` first (build.manifest is on).`);
  process.exit(2);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;

/** The chunk and everything it imports statically (what the browser fetches before running it). */
function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    closure(manifest[key].imports ?? [], seen);
  }
  return seen;
}

const sizeOf = (key: string) => {
  const bytes = fs.readFileSync(path.join(dist, manifest[key].file));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, text: bytes.toString('utf8') };
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k === 'index.html');
// The sign-in page is part of the entry (main.tsx draws it); older builds loaded it as a chunk.
const loginKey = Object.keys(manifest).find((k) => /pages\/login\/Login\.tsx$/.test(k));
if (!entryKey) {
  console.error('The manifest has no entry chunk.');
  process.exit(2);
}

const signInRoots = loginKey ? [entryKey, loginKey] : [entryKey];
const signInChunks = [...closure(signInRoots)].filter((k) => manifest[k].file.endsWith('.js'));
let raw = 0;
let gzip = 0;
/** ECharts and its renderer leave these names in their code; '/echarts/web' (a route path) does not match. */
const chartCode = /zrender|_echarts_instance_|echarts-for-react|ECharts(?:Instance)?\b/;
const chartChunks: string[] = [];
for (const key of signInChunks) {
  const s = sizeOf(key);
  raw += s.raw;
  gzip += s.gzip;
  if (/echarts|zrender/i.test(key) || chartCode.test(s.text)) chartChunks.push(manifest[key].file);
}

const GOAL_GZIP = 150 * 1024;
/** The console (App.tsx): what main.tsx loads after sign-in. */
const consoleKey = Object.keys(manifest).find((k) => /src\/App\.tsx$/.test(k) && manifest[k].isDynamicEntry);
const row = (name: string, r: number, g: number) => `| ${name.padEnd(44)} | ${kb(r).padStart(10)} | ${kb(g).padStart(10)} |`;
const table = (keys: string[]) => {
  const rows = keys.map((k) => ({ file: manifest[k].file.replace(/^assets\//, ''), ...sizeOf(k) })).sort((a, b) => b.gzip - a.gzip);
  console.log(`| ${'chunk'.padEnd(44)} | ${'raw'.padStart(10)} | ${'gzip'.padStart(10)} |`);
  console.log(`| ${'-'.repeat(44)} | ${'-'.repeat(10)} | ${'-'.repeat(10)} |`);
  for (const r of rows) console.log(row(r.file, r.raw, r.gzip));
  const raw = rows.reduce((n, r) => n + r.raw, 0);
  const gzip = rows.reduce((n, r) => n + r.gzip, 0);
  console.log(row(`total (${rows.length} chunks)`, raw, gzip));
};

// The respondent page's on-demand chunks (the region table) are not console routes.
const respondentOnly = new Set(Object.values(manifest).find((c) => c.isEntry && c.src === 'respondent.html')?.dynamicImports ?? []);
const routeChunks = Object.keys(manifest)
  .filter(
    (k) => manifest[k].isDynamicEntry && k !== loginKey && k !== consoleKey && !respondentOnly.has(k) && manifest[k].file.endsWith('.js'),
  )
  .map((k) => ({ key: k, ...sizeOf(k) }));

console.log(
  `Sign-in page JavaScript: ${signInChunks.length} chunks, ${kb(raw)} raw, ${kb(gzip)} gzip (goal ≤ ${kb(GOAL_GZIP)} gzip: ${gzip <= GOAL_GZIP ? 'met' : 'NOT met'})`,
);
table(signInChunks);
// What the browser fetches next, after sign-in: the console module and its imports (not the pages).
if (consoleKey) {
  const added = [...closure([consoleKey])].filter((k) => !signInChunks.includes(k) && manifest[k].file.endsWith('.js'));
  console.log(`\nAdded by the console after sign-in (${consoleKey}, without the layout and pages):`);
  table(added);
}
console.log(`Route chunks: ${routeChunks.length}`);

if (chartChunks.length) {
  console.error(`FAIL: the sign-in page loads chart code: ${chartChunks.join(', ')}`);
  process.exit(1);
}
console.log('OK: no ECharts module among the sign-in page chunks');
printPageSchemas();

// The respondent page: everything its entry loads before it runs (the region table is loaded
// only when a region question shows, and printed apart).
const respondentKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k === 'respondent.html');
if (!respondentKey) {
  console.error('The manifest has no respondent.html entry.');
  process.exit(2);
}
const respondentChunks = [...closure([respondentKey])];
let rRaw = 0;
let rGzip = 0;
const consoleCode: string[] = [];
for (const key of respondentChunks) {
  const s = sizeOf(key);
  rRaw += s.raw;
  rGzip += s.gzip;
  if (/ant-btn|ant-modal|zrender|_echarts_instance_|i18next/.test(s.text)) consoleCode.push(manifest[key].file);
}
const css = (manifest[respondentKey] as ManifestChunk & { css?: string[] }).css ?? [];
const cssGzip = css.reduce((n, file) => n + gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length, 0);
console.log(`Respondent page JavaScript: ${respondentChunks.length} chunks, ${kb(rRaw)} raw, ${kb(rGzip)} gzip; CSS ${kb(cssGzip)} gzip`);
for (const key of respondentChunks) console.log(`  ${manifest[key].file}`);
for (const key of manifest[respondentKey].dynamicImports ?? [])
  if (manifest[key]) console.log(`  on demand: ${manifest[key].file} ${kb(sizeOf(key).gzip)} gzip`);
if (consoleCode.length) {
  console.error(`FAIL: the respondent page loads console code (antd, ECharts or i18next): ${consoleCode.join(', ')}`);
  process.exit(1);
}
console.log('OK: no antd, ECharts or i18next in the respondent page');

/**
 * What a visit loads of the catalogue's schemas: the contract action modules in its chunks
 * (bytes before minification, as the build reports them), against all the build holds.
 */
function printPageSchemas() {
  const report = JSON.parse(fs.readFileSync(path.join(dist, '.vite/contract-modules.json'), 'utf8')) as Record<
    string,
    Record<string, number>
  >;
  const schemasOf = (keys: Iterable<string>) =>
    new Map([...keys].flatMap((k) => Object.entries(report[manifest[k].file] ?? {})).map(([m, n]) => [m.replace(/^.*[\\/]/, ''), n]));
  const total = [...schemasOf(Object.keys(manifest)).values()].reduce((a, b) => a + b, 0);
  const js = (keys: Iterable<string>) => [...keys].filter((k) => manifest[k].file.endsWith('.js'));
  const pageKey = (name: string) => Object.keys(manifest).find((k) => new RegExp(`src/pages/[^/]+/${name}\\.tsx$`).test(k));
  const layoutKey = Object.keys(manifest).find((k) => /src\/layout\/MainLayout\.tsx$/.test(k));
  const landingName = menuTable.find((m) => !m.hidden)?.children?.[0]?.name ?? '';
  const landingKey = pageKey(landingName);
  const pages = routeChunks
    .filter((c) => /src\/pages\//.test(c.key))
    .map((c) => ({ ...c, schemas: [...schemasOf(closure([c.key])).values()].reduce((a, b) => a + b, 0) }));
  const biggest = [...pages].sort((a, b) => b.gzip - a.gzip)[0];
  const mostSchemas = [...pages].sort((a, b) => b.schemas - a.schemas)[0];

  const visits: [string, string[]][] = [
    ['sign-in page', signInRoots],
    [
      `first page after sign-in (${landingName}, with console and layout)`,
      [...signInRoots, consoleKey, layoutKey, landingKey].filter((k): k is string => !!k),
    ],
    [`largest page chunk (${biggest.key.replace(/^.*\//, '')}: ${kb(biggest.gzip)} gzip, with its imports)`, [biggest.key]],
    [`most schemas of a page (${mostSchemas.key.replace(/^.*\//, '')} and its imports)`, [mostSchemas.key]],
  ];
  console.log(`\nCatalogue schemas per page: contract action modules, ${kb(total)} in the whole build (before minification)`);
  console.log(`| ${'visit'.padEnd(74)} | ${'JS gzip'.padStart(10)} | ${'schemas'.padStart(10)} | domains`);
  console.log(`| ${'-'.repeat(74)} | ${'-'.repeat(10)} | ${'-'.repeat(10)} | -------`);
  const whole: string[] = [];
  for (const [name, roots] of visits) {
    const keys = js(closure(roots));
    const schemas = schemasOf(keys);
    const bytes = [...schemas.values()].reduce((a, b) => a + b, 0);
    const gz = keys.reduce((n, k) => n + sizeOf(k).gzip, 0);
    console.log(`| ${name.padEnd(74)} | ${kb(gz).padStart(10)} | ${kb(bytes).padStart(10)} | ${[...schemas.keys()].join(' ') || '-'}`);
    if (schemas.has('catalogue.ts')) whole.push(name);
  }
  if (whole.length) {
    console.error(`FAIL: the whole catalogue (catalogue.ts, every domain's schemas) is loaded by: ${whole.join('; ')}`);
    process.exit(1);
  }
  console.log('OK: no page loads the whole catalogue');
}
