import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH_OPTIONS } from './tests/e2e/browser';

/**
 * The browser suite: the web host in Debian's Chromium (tests/e2e) and the desktop app through Playwright's
 * Electron support (tests/electron, skipped with its reason where no Electron binary exists). `npm test` runs it
 * after the vitest projects; `npx playwright test tests/e2e/x.test.ts` runs one file.
 */
export default defineConfig({
  testMatch: '**/*.test.ts',
  // Builds the renderer once per run (into E2E_RENDERER_DIR when set) and the PGlite template.
  globalSetup: './tests/e2e/global-setup.ts',
  // Two workers on the two cores this project is built on: each one runs Chromium and an embedded API (PGlite),
  // and a machine loaded by a parallel build leaves no room for a third. E2E_WORKERS overrides.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Generous, for a loaded machine: a test waits on its page, never on a clock.
  timeout: 120_000,
  // A page under load may take seconds to settle after a reload: web-first assertions wait up to 10 s.
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  // Outputs (traces, screenshots of failures, diff images) beside the JSON report scripts/steps.mjs reads;
  // a folder of its own, since Playwright empties it at each run and test-results/ holds vitest's report too.
  outputDir: 'test-results/playwright',
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    // The trace of a failed test keeps its actions, network, console and a DOM snapshot per step, not the
    // screencast: recording screenshots of every frame cost 43 % of the suite's CPU (85 s against 48 s for
    // adverts + story-editor; 52.5 s with DOM snapshots). The failure's own screenshot is taken once, at the end.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    screenshot: 'only-on-failure',
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    navigationTimeout: 60_000,
  },
  projects: [
    {
      name: 'web',
      testDir: 'tests/e2e',
      // Never a downloaded browser: the system's Chromium.
      use: { browserName: 'chromium', launchOptions: CHROMIUM_LAUNCH_OPTIONS },
    },
    {
      name: 'electron',
      testDir: 'tests/electron',
    },
  ],
});
