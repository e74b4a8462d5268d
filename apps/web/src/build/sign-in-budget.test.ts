// @vitest-environment node
/**
 * The sign-in page's JavaScript budget (issue 17): the first page most visitors load stays at
 * most 150 kB gzip and holds none of the console's weight (antd, the action catalogue and its
 * zod schemas, charts), however many pages and actions are added. And per-page schemas: no chunk
 * holds the whole catalogue, the console and its landing page load no domain's schemas, and a
 * page loads its own domain's. It builds the console for real and measures bytes and modules of
 * the output, so it says nothing about time; bench/web prints the same figures per chunk.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { menuTable } from '@xinli/contract';

const BUDGET_GZIP = 150 * 1024;
/** Modules the sign-in page must not carry: the console's own code lives in App.tsx and the pages. */
const FORBIDDEN = [
  /[\\/]node_modules[\\/]antd[\\/]/,
  /[\\/]node_modules[\\/]@ant-design[\\/]icons[\\/]/,
  /[\\/]node_modules[\\/]@rc-component[\\/]/,
  /[\\/]node_modules[\\/]zod[\\/]/,
  /[\\/]node_modules[\\/](echarts|zrender)[\\/]/,
  /[\\/]packages[\\/]contract[\\/]src[\\/](actions[\\/]|catalogue)/,
  /[\\/]src[\\/]layout[\\/]/,
  /[\\/]src[\\/]pages[\\/](?!login[\\/])/,
];

const webRoot = fileURLToPath(new URL('../..', import.meta.url));

let chunks: Map<string, Rolldown.OutputChunk>;
/** The stylesheets of the build, by file name. */
let stylesheets: Map<string, string>;

beforeAll(async () => {
  // Vitest runs with NODE_ENV=test, which would build React's development code: build as `npm run build` does.
  const result = await build({
    root: webRoot,
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'silent',
    build: { write: false, manifest: false },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  chunks = new Map(output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
  stylesheets = new Map(
    output.output
      .filter((o): o is Rolldown.OutputAsset => o.type === 'asset' && o.fileName.endsWith('.css'))
      .map((a) => [a.fileName, String(a.source)]),
  );
}, 180_000);

/** What the browser fetches before these chunks run: them and their static imports, transitively. */
function closure(roots: Rolldown.OutputChunk[]) {
  const seen = new Map<string, Rolldown.OutputChunk>();
  const visit = (c: Rolldown.OutputChunk) => {
    if (seen.has(c.fileName)) return;
    seen.set(c.fileName, c);
    for (const i of c.imports) visit(chunks.get(i)!);
  };
  roots.forEach(visit);
  return [...seen.values()];
}

/** The chunk a lazily loaded module (App, the layout, a page) starts. */
function chunkOf(source: RegExp) {
  const chunk = [...chunks.values()].find((c) => c.isDynamicEntry && c.facadeModuleId && source.test(c.facadeModuleId));
  if (!chunk) throw new Error(`no chunk starts at ${source}`);
  return chunk;
}

const signInChunks = () => closure([...chunks.values()].filter((c) => c.isEntry && /[\\/]index\.html$/.test(c.facadeModuleId ?? '')));

/** The CSS these chunks bring with them. */
const cssOf = (list: Rolldown.OutputChunk[]) =>
  [...new Set(list.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))].map((f) => stylesheets.get(f)!).join('\n');

const ACTIONS = /[\\/]packages[\\/]contract[\\/]src[\\/]actions[\\/]([^\\/]+)\.ts$/;
/** The domains (contract action files, each with its zod schemas) these chunks hold. */
const domainsOf = (list: Rolldown.OutputChunk[]) =>
  [...new Set(list.flatMap((c) => c.moduleIds).flatMap((m) => ACTIONS.exec(m)?.[1] ?? []))].sort();

describe('the sign-in page (first load)', () => {
  it('loads at most 150 kB gzip of JavaScript and none of the console, the catalogue or charts', () => {
    const loaded = signInChunks();
    const gzip = loaded.reduce((n, c) => n + gzipSync(c.code, { level: 9 }).length, 0);
    const modules = loaded.flatMap((c) => c.moduleIds);
    expect(modules.some((m) => /[\\/]src[\\/]pages[\\/]login[\\/]Login\.tsx$/.test(m))).toBe(true);
    expect(modules.filter((m) => FORBIDDEN.some((f) => f.test(m)))).toEqual([]);
    expect(gzip).toBeLessThanOrEqual(BUDGET_GZIP);
  });

  it("brings none of antd's stylesheet: the console brings it (theme.ts zeroRuntime), before anything is drawn with antd", () => {
    const signIn = cssOf(signInChunks());
    expect(signIn).not.toContain('.ant-btn');
    expect(signIn.length).toBeLessThan(20 * 1024);
    expect(cssOf([chunkOf(/src[\\/]App\.tsx$/)])).toContain('.ant-btn{');
  });
});

describe('per-page schemas (after sign-in)', () => {
  it('puts the whole catalogue in no chunk: access checks read the zod-free action table', () => {
    const holders = [...chunks.values()].filter((c) =>
      c.moduleIds.some((m) => /[\\/]packages[\\/]contract[\\/]src[\\/]catalogue\.ts$/.test(m)),
    );
    expect(holders.map((c) => c.fileName)).toEqual([]);
  });

  it('loads no domain schemas with the console, its layout and the landing page', () => {
    const landing = menuTable.find((m) => !m.hidden)!.children![0].name;
    const visit = closure([
      chunkOf(/src[\\/]App\.tsx$/),
      chunkOf(/src[\\/]layout[\\/]MainLayout\.tsx$/),
      chunkOf(new RegExp(`src[\\\\/]pages[\\\\/][^\\\\/]+[\\\\/]${landing}\\.tsx$`)),
    ]);
    expect(domainsOf(visit)).toEqual([]);
  });

  it('gives a page the schemas of its own domain only', () => {
    expect(domainsOf(closure([chunkOf(/pages[\\/]authority[\\/]roleAdministration\.tsx$/)]))).toEqual(['system']);
    expect(domainsOf(closure([chunkOf(/pages[\\/]evaluating[\\/]evaluationScale\.tsx$/)]))).toEqual(['scales']);
  });
});
