// @vitest-environment node
/**
 * The sign-in page's JavaScript budget (issue 17): the first page most visitors load stays at
 * most 150 kB gzip and holds none of the console's weight (antd, the action catalogue and its
 * zod schemas, charts), however many pages and actions are added. It builds the console for real
 * and measures bytes of the output, so it says nothing about time; bench/web prints the same
 * figures per chunk.
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

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

async function signInChunks() {
  // Vitest runs with NODE_ENV=test, which would build React's development code: build as `npm run build` does.
  const result = await build({
    root: webRoot,
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'silent',
    build: { write: false, manifest: false },
  });
  const output = (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput;
  const chunks = new Map(output.output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
  const entry = [...chunks.values()].find((c) => c.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  // What the browser fetches before the entry runs: the entry and its static imports, transitively.
  const seen = new Map<string, Rolldown.OutputChunk>();
  const visit = (c: Rolldown.OutputChunk) => {
    if (seen.has(c.fileName)) return;
    seen.set(c.fileName, c);
    for (const i of c.imports) visit(chunks.get(i)!);
  };
  visit(entry);
  return [...seen.values()];
}

describe('the sign-in page (first load)', () => {
  it('loads at most 150 kB gzip of JavaScript and none of the console, the catalogue or charts', async () => {
    const chunks = await signInChunks();
    const gzip = chunks.reduce((n, c) => n + gzipSync(c.code, { level: 9 }).length, 0);
    const modules = chunks.flatMap((c) => c.moduleIds);
    expect(modules.some((m) => /[\\/]src[\\/]pages[\\/]login[\\/]Login\.tsx$/.test(m))).toBe(true);
    expect(modules.filter((m) => FORBIDDEN.some((f) => f.test(m)))).toEqual([]);
    expect(gzip).toBeLessThanOrEqual(BUDGET_GZIP);
  }, 180_000);
});
