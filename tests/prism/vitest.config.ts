import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The Prism run (`npm run test:prism`, from .ci/run after the PostgreSQL pass): one file, one worker, apart from
 * `npm test` (tests/prism/prism-proxy.test.ts says what it checks).
 */
export default defineConfig({
  resolve: { alias: { '@shared': fileURLToPath(new URL('../../src-shared', import.meta.url)) } },
  test: {
    name: 'prism',
    include: ['tests/prism/**/*.test.ts'],
    root: fileURLToPath(new URL('../..', import.meta.url)),
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    maxWorkers: 1,
  },
});
