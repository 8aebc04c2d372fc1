import { cpus, loadavg } from 'node:os';

/** Percentiles and a small table printer for the benchmark output. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / (sorted.length || 1);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean,
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Every table says how busy the machine was when it was printed (1-minute load average, cores). */
export function table(title: string, rows: [string, string][]): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`\n${title}  [load ${loadavg()[0].toFixed(2)}, ${cpus().length} cores]`);
  for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
}
