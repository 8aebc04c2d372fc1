import { defineConfig } from 'vitest/config';

/**
 * Tests of the built desktop app (out/, written by `npm run build`), not of the sources: `npm run test:build`
 * builds, then runs them; `.ci/run` runs it before `npm test`.
 */
export default defineConfig({
  test: {
    include: ['tests/build/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
