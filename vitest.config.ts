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
    // One worker per CPU the machine offers, plus one: test files are independent (own databases and ports), and the
    // browser files spend much of their time waiting on Chromium, a process of its own, so a spare worker fills it.
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
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // A page under load (three workers, Chromium, the web host on two cores) may take seconds to settle after
          // a reload: expect.poll waits up to 10 s there (1 s by default). A poll that holds returns at once.
          expect: { poll: { timeout: 10_000 } },
          // Builds the renderer once for every browser test file.
          globalSetup: ['tests/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'electron',
          include: ['tests/electron/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
