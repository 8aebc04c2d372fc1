// Prints the plain closing line "N passed, N failed, N skipped" from the JSON reports of vitest and of Playwright Test
// (its `stats`: expected and flaky tests passed, unexpected ones failed), and before it the browser files that took
// the longest, so a CI run that grows slower says where.
import { existsSync, readFileSync } from 'node:fs';

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

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  if (report.stats && 'expected' in report.stats) {
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped;
    // A run that broke before or after its tests (global setup, a worker's teardown) counts as a failure.
    failed += report.errors?.length ?? 0;
    const slowest = secondsPerFile(report).slice(0, 8);
    if (slowest.length) console.log(`slowest browser files: ${slowest.map(([file, seconds]) => `${file} ${Math.round(seconds)} s`).join(', ')}`);
    continue;
  }
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
