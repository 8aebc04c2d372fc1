import client from 'prom-client';
import type { Database } from '../db/client';

type Sample = number | { labels: Record<string, string>; value: number }[];

/**
 * The server's Prometheus metrics (prom-client), served at GET /metrics when METRICS_TOKEN is set
 * (docs/operations.md, "Monitor"). One registry per server (tests run several in one process). The app counts
 * requests per operation; features register what they own (push batches, imports, autopublish, the audience
 * engine) with `counter` and `gauge`, the latter read when Prometheus scrapes.
 */
export class Metrics {
  readonly registry = new client.Registry();
  readonly requests = new client.Counter({
    name: 'backoffice_http_requests_total',
    help: 'HTTP requests answered, per operation (contract id, or the route), method and status.',
    labelNames: ['operation', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly duration = new client.Histogram({
    name: 'backoffice_http_request_duration_seconds',
    help: 'Time to answer, per operation.',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly errors = new client.Counter({
    name: 'backoffice_http_errors_total',
    help: 'Error answers (4xx and 5xx), per status.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly signInRefusals = new client.Counter({
    name: 'backoffice_sign_in_refusals_total',
    help: 'Sign-ins refused (POST /authenticate), per status: 400 bad input, 401 wrong credentials, 429 too many attempts, 503 busy.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  /** Node's own figures (memory, event loop delay, garbage collection): only for a server that serves /metrics. */
  collectProcessMetrics(): void {
    client.collectDefaultMetrics({ register: this.registry, prefix: 'backoffice_' });
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): client.Counter<L> {
    return new client.Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** A gauge read at scrape time; a failed read leaves the last value (the scrape itself never fails). */
  gauge(name: string, help: string, read: () => Sample | Promise<Sample>, labelNames: readonly string[] = []): void {
    new client.Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        try {
          const sample = await read();
          if (typeof sample === 'number') this.set(sample);
          else for (const { labels, value } of sample) this.set(labels, value);
        } catch {
          // The database did not answer: the previous value stays, the readiness probe says why.
        }
      },
    });
  }

  /** The PostgreSQL pool's connections (none on PGlite). */
  databasePool(db: Database): void {
    const pool = (db as unknown as { $client?: { totalCount?: number; idleCount: number; waitingCount: number } }).$client;
    if (typeof pool?.totalCount !== 'number') return;
    this.gauge(
      'backoffice_db_pool_connections',
      'Connections of the PostgreSQL pool: open, idle, and queries waiting for one.',
      () => [
        { labels: { state: 'total' }, value: pool.totalCount ?? 0 },
        { labels: { state: 'idle' }, value: pool.idleCount },
        { labels: { state: 'waiting' }, value: pool.waitingCount },
      ],
      ['state'],
    );
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
