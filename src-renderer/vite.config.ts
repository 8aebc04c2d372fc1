import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The renderer's configuration, built by electron.vite.config.ts (the one renderer build both hosts serve) and
 * served by Vite's dev server in `npm run web:dev`.
 */
export const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
export const sharedDir = fileURLToPath(new URL('../src-shared', import.meta.url));

export default defineConfig({
  root: rendererRoot,
  base: '/',
  plugins: [react()],
  resolve: { alias: { '@shared': sharedDir } },
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    minify: true,
    // Both hosts load the same files: Electron's Chromium and the browsers of the web host (ES2022: Chrome 94,
    // Firefox 93, Safari 16.4), without the module-preload polyfill none of them needs.
    target: 'es2022',
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // zod's sources carry comments Rollup cannot place and drops anyway: noise, not a problem of ours.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
});
