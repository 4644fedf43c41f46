import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The console's build (README, "The console"): `npm run build` (and so `npm install`) writes it to
 * dist/web/console, which the server serves at `/console`. Every asset is bundled: the page loads nothing from
 * another origin.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('../dist/web/console', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // No inline scripts or data: modules: the page's CSP allows scripts from its own origin only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
