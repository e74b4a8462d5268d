import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The console build, and the respondent pages (respondent.html: a second input with its own
 * small bundle, no antd or ECharts; the server answers /a/... and /r/... with it). The manifest
 * lets bench/web.ts find which chunks the sign-in page loads: the entry (main.tsx) draws the
 * sign-in page without antd or the action catalogue, the console (App.tsx) and each page
 * (pages/registry.ts) are chunks of their own, so charts and schemas never reach the sign-in page.
 * In development /api goes to the server on port 3000 (`npm run serve`).
 */
export default defineConfig({
  plugins: [react()],
  build: {
    manifest: true,
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      input: { index: 'index.html', respondent: 'respondent.html' },
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
