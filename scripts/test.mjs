// `npm test`: the whole suite, each step timed. The static checks run in two lanes side by side (the type-check is
// one single-threaded process, the linters another), then vitest (its own workers), then the browser suite
// (Playwright, its own workers). Every step runs even after one fails, so one run names every failure; the exit
// status is non-zero when any step failed. The step table and the closing line "N passed, N failed, N skipped" end
// the output; with CI_STEPS_FILE set (.ci/run), each step is also appended there for the run's own table.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printSteps, recordStep } from './steps.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const results = join(root, 'test-results');
const bin = (name) => join(root, 'node_modules/.bin', name);

/** Each lane runs its steps one after the other; the lanes of a group run side by side. */
const STATIC_LANES = [
  [{ name: 'typecheck (tsc --build)', command: [bin('tsc'), '--build', '--pretty'] }],
  [
    { name: 'ESLint', command: ['npm', 'run', '--silent', 'lint'] },
    { name: 'Prettier check', command: [bin('prettier'), '--check', '--log-level', 'warn', '.'] },
    { name: 'knip (dead code)', command: ['npm', 'run', '--silent', 'lint:dead'] },
    { name: 'OpenAPI document (Redocly)', command: ['npm', 'run', '--silent', 'lint:api'] },
  ],
];
const SUITES = [
  {
    name: 'vitest (unit, server on PGlite, main, renderer)',
    command: [bin('vitest'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${join(results, 'vitest.json')}`],
    reports: [join(results, 'vitest.json')],
  },
  { name: 'browser suite (Playwright, Chromium)', command: [bin('playwright'), 'test'], reports: [join(results, 'playwright.json')] },
];

const steps = [];
const ciSteps = process.env.CI_STEPS_FILE;

/** Runs one step; a step of a lane keeps its output until it ends, so two lanes never interleave their lines. */
function run(step, { buffered }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const [command, ...args] = step.command;
    const child = spawn(command, args, { cwd: root, stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output = [];
    if (buffered) {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    const end = (status) => {
      const seconds = (performance.now() - started) / 1000;
      if (buffered) process.stdout.write(Buffer.concat(output));
      console.log(`test: ${step.name}: ${seconds.toFixed(1)} s${status === 0 ? '' : `, FAILED (exit ${status})`}`);
      const ended = { name: step.name, seconds, status, ...(step.reports ? { reports: step.reports } : {}) };
      steps.push(ended);
      if (ciSteps) recordStep(ciSteps, { ...ended, name: `npm test › ${step.name}` });
      resolve(status);
    };
    child.once('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      end(127);
    });
    child.once('exit', (code, signal) => end(code ?? (signal ? 128 : 1)));
  });
}

// A report left by an earlier run must not be counted as this one's.
for (const suite of SUITES) for (const report of suite.reports) rmSync(report, { force: true });

const lanes = STATIC_LANES.map(async (lane) => {
  let worst = 0;
  for (const step of lane) worst = Math.max(worst, await run(step, { buffered: true }));
  return worst;
});
let failed = (await Promise.all(lanes)).some((status) => status !== 0);
for (const suite of SUITES) if ((await run(suite, { buffered: false })) !== 0) failed = true;

printSteps(steps, 'npm test, step by step');
process.exit(failed ? 1 : 0);
