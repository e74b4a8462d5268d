import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** The contract's action modules (each domain's zod schemas) and the catalogue that joins them. */
const contractActions = /[\\/]packages[\\/]contract[\\/]src[\\/](actions[\\/][^\\/]+|catalogue)\.ts$/;

/**
 * Writes .vite/contract-modules.json beside the manifest: for each chunk, the contract action
 * modules it holds and their bytes (before minification). bench/web.ts reads it to print which
 * domains' schemas a page loads; the manifest alone names chunks, not the modules inside them.
 */
function contractModules(): Plugin {
  return {
    name: 'xinli-contract-modules',
    apply: 'build',
    generateBundle(_, bundle) {
      const report: Record<string, Record<string, number>> = {};
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const [id, m] of Object.entries(chunk.modules))
          if (contractActions.test(id)) (report[chunk.fileName] ??= {})[path.relative(repoRoot, id)] = m.renderedLength;
      }
      this.emitFile({ type: 'asset', fileName: '.vite/contract-modules.json', source: JSON.stringify(report, null, 1) });
    },
  };
}

/**
 * The console build, and the respondent pages (respondent.html: a second input with its own
 * small bundle, no antd or ECharts; the server answers /a/... and /r/... with it). The manifest
 * lets bench/web.ts find which chunks the sign-in page loads: the entry (main.tsx) draws the
 * sign-in page without antd or the action catalogue, the console (App.tsx) and each page
 * (pages/registry.ts) are chunks of their own, so charts and schemas never reach the sign-in page;
 * a page takes its schemas from its own domain's action module, so it loads no other domain's.
 * In development /api goes to the server on port 3000 (`npm run serve`).
 */
export default defineConfig({
  plugins: [react(), contractModules()],
  build: {
    manifest: true,
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      // cashier.html: the sandbox payment provider's own page (served only with PAYMENT_PROVIDER=sandbox).
      input: { index: 'index.html', respondent: 'respondent.html', cashier: 'cashier.html' },
      // The contract's modules only declare things (menus, error codes, zod schemas): marking
      // them side-effect free lets the console take the menu table without the zod catalogue.
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]contract[\\/]/.test(id) && !/[\\/]node_modules[\\/]zod[\\/]/.test(id) },
      output: {
        // React in a chunk of its own: every visit needs it and it changes less often than our code.
        codeSplitting: { groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
