// The step table of a run: each step of `npm test` (scripts/test.mjs) and of `.ci/run` appends one JSON line
// { name, seconds, status, reports? } to a steps file as it ends; this prints them as one table with the tests each
// step's reports counted, then the plain closing line "N passed, N failed, N skipped" over every report, so a slow or
// failed run says where it lost its minutes.
//
// node scripts/steps.mjs <steps.jsonl>     (the table; exit 0 whatever the steps did: the run's own status decides)
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Seconds spent per file of a Playwright report (its suites nest describe blocks inside the file's suite). */
function secondsPerFile(report) {
  const totals = new Map();
  const visit = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        for (const result of test.results ?? []) totals.set(file, (totals.get(file) ?? 0) + (result.duration ?? 0) / 1000);
    for (const child of suite.suites ?? []) visit(child, file);
  };
  for (const suite of report.suites ?? []) visit(suite, suite.file ?? suite.title);
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/**
 * Passed, failed and skipped tests of one JSON report: vitest's (numPassedTests…) or Playwright Test's (`stats`:
 * expected and flaky passed, unexpected failed; an error outside the tests, in a global setup or a worker's teardown,
 * counts as a failure). Null when the report is missing: its step did not get to write one.
 */
export function countsOf(file) {
  if (!existsSync(file)) return null;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (report.stats && 'expected' in report.stats) {
    return {
      passed: report.stats.expected + (report.stats.flaky ?? 0),
      failed: report.stats.unexpected + (report.errors?.length ?? 0),
      skipped: report.stats.skipped,
      slowest: secondsPerFile(report).slice(0, 8),
    };
  }
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0),
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    slowest: [],
  };
}

/** Appends one ended step to `stepsFile` (the file and its folder made on first use). */
export function recordStep(stepsFile, step) {
  mkdirSync(dirname(stepsFile), { recursive: true });
  appendFileSync(stepsFile, `${JSON.stringify(step)}\n`);
}

const clock = (seconds) => {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
};

/** The table of `steps` and the closing line; answers the totals. */
export function printSteps(steps, title = 'steps') {
  const rows = [];
  const total = { passed: 0, failed: 0, skipped: 0 };
  const counted = new Set();
  for (const step of steps) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    let reported = false;
    for (const file of step.reports ?? []) {
      const found = countsOf(file);
      if (!found) continue;
      reported = true;
      for (const key of ['passed', 'failed', 'skipped']) counts[key] += found[key];
      // A report named by a step and by the group it ran in counts once in the totals.
      if (!counted.has(file)) {
        counted.add(file);
        for (const key of ['passed', 'failed', 'skipped']) total[key] += found[key];
      }
      if (found.slowest.length) console.log(`slowest browser files: ${found.slowest.map(([name, s]) => `${name} ${Math.round(s)} s`).join(', ')}`);
    }
    rows.push([
      step.name,
      clock(step.seconds),
      step.status === 0 ? 'ok' : `FAILED (${step.status})`,
      reported ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` : '',
    ]);
  }
  const header = ['step', 'wall (m:ss)', 'status', 'tests'];
  const widths = header.map((name, column) => Math.max(name.length, ...rows.map((row) => row[column].length)));
  const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(`\n${title}:`);
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return total;
}

export function readSteps(stepsFile) {
  if (!existsSync(stepsFile)) return [];
  return readFileSync(stepsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/steps.mjs <steps.jsonl>');
    process.exit(2);
  }
  const started = Number(process.argv[3]);
  const steps = readSteps(file);
  printSteps(steps, Number.isFinite(started) && started > 0 ? `ci: every step (whole run ${clock(Date.now() / 1000 - started)})` : 'steps');
}
