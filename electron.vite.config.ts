import { cpSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';
import renderer from './src-renderer/vite.config';

const alias = { '@shared': fileURLToPath(new URL('./src-shared', import.meta.url)) };
const out = (folder: string) => fileURLToPath(new URL(`./out/${folder}`, import.meta.url));
/**
 * The desktop app's own packages (keytar, electron-store, electron-updater…) are optionalDependencies, which the team
 * server's install leaves out (docs/operations.md); for main they are production packages like the others, kept
 * external and packed by electron-builder. electron-vite externalizes `dependencies` only.
 */
const desktopPackages = Object.keys(
  (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { optionalDependencies?: Record<string, string> })
    .optionalDependencies ?? {},
);

/**
 * The embedded API applies its SQL migrations at start: ship them beside the built server, with a migrated
 * PGlite template so that the first start skips initdb. Written into the folder this build writes (scripts/build.ts
 * builds into a staging folder, then moves it into out/).
 */
function embeddedServerFiles(): Plugin {
  let outDir = out('main');
  return {
    name: 'backoffice-embedded-server-files',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async writeBundle() {
      const migrations = fileURLToPath(new URL('./src-server/db/migrations', import.meta.url));
      cpSync(migrations, `${outDir}/migrations`, { recursive: true });
      const { buildTemplate } = await import('./src-server/db/build-template');
      await buildTemplate(`${outDir}/pglite-template`, migrations);
    },
  };
}

/**
 * Absolute asset paths (`/assets/…`) for both hosts: a route such as /password/confirm loads the index, whose
 * relative `./assets/…` would resolve under /password/. electron-vite's renderer preset sets `./` for production.
 */
function absoluteBase(): Plugin {
  return { name: 'backoffice-absolute-base', config: () => ({ base: '/' }) };
}

/**
 * The desktop build (`npm run build`, scripts/build.ts). Source maps are written beside the code (electron-builder.yml
 * leaves every *.map out of the asar; `npm run dist` keeps them beside the release); the renderer's are hidden (no
 * sourceMappingURL: a browser of the web host never asks for them).
 */
export default defineConfig({
  main: {
    resolve: { alias },
    plugins: [embeddedServerFiles()],
    build: {
      outDir: out('main'),
      // date-fns bundled: its 250 ESM modules, resolved one by one, cost about 1 s of the embedded server's start.
      externalizeDeps: { include: desktopPackages, exclude: ['date-fns', '@date-fns/tz', 'drizzle-orm'] },
      sourcemap: true,
      rollupOptions: {
        input: {
          index: fileURLToPath(new URL('./src-main/index.ts', import.meta.url)),
          'embedded-server': fileURLToPath(new URL('./src-main/embedded-server.ts', import.meta.url)),
        },
        // The API reference (src-server/openapi/serve.ts) and the S3 storage are a team server's, never loaded by
        // the desktop app; electron-builder.yml leaves their packages out of the app (tests/build checks both).
        external: ['@fastify/swagger', '@fastify/swagger-ui', /^@aws-sdk\//],
      },
    },
  },
  preload: {
    resolve: { alias },
    build: {
      outDir: out('preload'),
      externalizeDeps: true,
      sourcemap: true,
      rollupOptions: {
        input: { index: fileURLToPath(new URL('./src-preload/index.ts', import.meta.url)) },
        // A sandboxed preload must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  // The one renderer build: the desktop app loads it from app://renderer, the web host serves the same files.
  renderer: {
    root: renderer.root,
    resolve: { alias },
    plugins: [react(), absoluteBase()],
    build: {
      ...renderer.build,
      outDir: out('renderer'),
      sourcemap: 'hidden',
      rollupOptions: { ...renderer.build?.rollupOptions, input: fileURLToPath(new URL('./src-renderer/index.html', import.meta.url)) },
    },
  },
});
