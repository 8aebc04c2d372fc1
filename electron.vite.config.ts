import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import renderer from './src-renderer/vite.config';

const alias = { '@shared': fileURLToPath(new URL('./src-shared', import.meta.url)) };
const out = (folder: string) => fileURLToPath(new URL(`./out/${folder}`, import.meta.url));

/**
 * The embedded API applies its SQL migrations at start: ship them beside the built server, with a migrated
 * PGlite template so that the first start skips initdb.
 */
function embeddedServerFiles(): Plugin {
  return {
    name: 'backoffice-embedded-server-files',
    async writeBundle() {
      const migrations = fileURLToPath(new URL('./src-server/db/migrations', import.meta.url));
      cpSync(migrations, `${out('main')}/migrations`, { recursive: true });
      const { buildTemplate } = await import('./src-server/db/build-template');
      await buildTemplate(`${out('main')}/pglite-template`, migrations);
    },
  };
}

export default defineConfig({
  main: {
    resolve: { alias },
    plugins: [embeddedServerFiles()],
    build: {
      outDir: out('main'),
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: fileURLToPath(new URL('./src-main/index.ts', import.meta.url)),
          'embedded-server': fileURLToPath(new URL('./src-main/embedded-server.ts', import.meta.url)),
        },
        // The API reference (src-server/openapi/serve.ts) is a team server's, never loaded by the embedded server.
        external: ['@fastify/swagger', '@fastify/swagger-ui'],
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: out('preload'),
      externalizeDeps: true,
      rollupOptions: {
        input: { index: fileURLToPath(new URL('./src-preload/index.ts', import.meta.url)) },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: renderer.root,
    base: renderer.base,
    resolve: { alias },
    plugins: [react()],
    build: {
      ...renderer.build,
      outDir: out('renderer'),
      rollupOptions: { input: fileURLToPath(new URL('./src-renderer/index.html', import.meta.url)) },
    },
  },
});
