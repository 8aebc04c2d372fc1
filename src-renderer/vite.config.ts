import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The renderer build, used by the web host (`npm run web`) and reused by electron.vite.config.ts. */
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
