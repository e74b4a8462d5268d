import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The console build, and the respondent pages (respondent.html: a second input with its own
 * small bundle, no antd or ECharts; the server answers /a/... and /r/... with it). The manifest lets bench/web.ts find which chunks the sign-in page loads;
 * pages are lazy (pages/registry.ts), so charts never reach the sign-in page.
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
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
