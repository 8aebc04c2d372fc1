import { cpSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('../out/server', import.meta.url));

/** The SQL migrations the server applies at start, beside the bundle (db/client.ts looks for `./migrations`). */
function migrations(): Plugin {
  return {
    name: 'backoffice-server-migrations',
    writeBundle() {
      cpSync(fileURLToPath(new URL('./db/migrations', import.meta.url)), `${outDir}/migrations`, { recursive: true });
    },
  };
}

/**
 * `npm run build:server`: the team server bundled into out/server/cli.js, as the web host is (web.vite.config.ts):
 * `node out/server/cli.js` starts it after `npm ci --omit=dev`, without tsx or TypeScript. Packages stay in
 * node_modules (an SSR build leaves them external), so every one it imports must be a production dependency
 * (scripts/server-bundle-check.sh proves it in CI).
 */
export default defineConfig({
  resolve: { alias: { '@shared': fileURLToPath(new URL('../src-shared', import.meta.url)) } },
  logLevel: 'warn',
  plugins: [migrations()],
  build: {
    ssr: fileURLToPath(new URL('./cli.ts', import.meta.url)),
    outDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
      // Chunks beside cli.js: modules that find files from import.meta.url (migrations, package.json) stay one level down.
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  // date-fns as ESM is some 250 modules, each resolved at every start (about 1 s of the start): bundled, only the
  // few functions used are there.
  ssr: { target: 'node', noExternal: ['date-fns', '@date-fns/tz', 'drizzle-orm'] },
});
