import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = { '@shared': fileURLToPath(new URL('./src-shared', import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One worker per CPU the machine offers, plus one: test files are independent (own databases and ports). The
    // browser tests are Playwright Test's (playwright.config.ts), run by `npm test` after these.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'node',
          include: ['tests/{unit,server,main,renderer}/**/*.test.{ts,tsx}'],
          // A worker runs its files one after the other in one module graph: the server (fastify, drizzle, PGlite's
          // WebAssembly, every feature) is imported once per worker instead of once per file, most of the import
          // time of the run. The files share no state but what they start and close themselves (own server, own
          // database, own port); fake timers and environment changes are undone by the tests that make them.
          isolate: false,
          // Builds (or reuses) the migrated PGlite template every test database is loaded from.
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
