import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * `npm run web`'s host bundled into out/web/web-cli.js: Node starts it without compiling TypeScript at every
 * launch (tsx costs about 0.4 s, and every module it transforms more). Packages stay in node_modules.
 */
export default defineConfig({
  resolve: { alias: { '@shared': fileURLToPath(new URL('../../src-shared', import.meta.url)) } },
  logLevel: 'warn',
  build: {
    ssr: fileURLToPath(new URL('./web-cli.ts', import.meta.url)),
    outDir: fileURLToPath(new URL('../../out/web', import.meta.url)),
    emptyOutDir: true,
    target: 'node24',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
      output: { format: 'es', entryFileNames: '[name].js' },
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  // date-fns bundled, as in src-server/vite.config.ts: its 250 ESM modules cost about 1 s at every start.
  ssr: { target: 'node', noExternal: ['date-fns', '@date-fns/tz', 'drizzle-orm'] },
});
