import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PRODUCT, API_VERSION } from '@shared/api-identity';
import { MESSAGES } from '@shared/messages';
import { READINESS_MESSAGES } from '@shared/messages/api';
import type { ServerContext } from '../context';
import { HttpError } from '../errors';

/** The probes' paths: answered while the instance starts, counted apart in the metrics. */
export const PROBE_PATHS = new Set(['/health', '/ready', '/metrics']);

/** How long an API request made during the start-up tasks waits for them before 503 (the load balancer retries elsewhere). */
const STARTUP_WAIT_MS = 30_000;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The operator's routes (docs/operations.md, "Monitor"): GET /health (liveness: the process answers, nothing
 * else is touched), GET /ready (readiness: 200 only when every check passes, else 503 with each reason in French and
 * English), GET /metrics (Prometheus text, only with METRICS_TOKEN, as a bearer token). Counts every answer.
 */
export function registerOperatorRoutes(app: FastifyInstance, context: ServerContext): void {
  const { metrics, readiness } = context;
  app.addHook('onResponse', async (request, reply) => {
    const operation = (request.routeOptions.config as { operationId?: string }).operationId ?? request.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    metrics.requests.inc({ operation, method: request.method, status });
    metrics.duration.observe({ operation }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 400) metrics.errors.inc({ status });
    if (operation === 'auth.signIn' && reply.statusCode >= 400) metrics.signInRefusals.inc({ status });
  });

  // Requests that come while the start-up tasks run (the audience engine's first build) wait for them.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (readiness.started || PROBE_PATHS.has(request.routeOptions.url ?? '')) return;
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      readiness.whenStarted().then(
        () => true,
        () => false,
      ),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STARTUP_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (!waited) throw new HttpError(503, READINESS_MESSAGES.starting, { 'retry-after': '10' });
  });

  // Also the identity the desktop app checks before it connects to an address (src-shared/api-identity.ts).
  app.get('/health', { logLevel: 'warn' }, async () => ({ ok: true, database: context.dbKind, product: API_PRODUCT, apiVersion: API_VERSION }));

  app.get('/ready', { logLevel: 'warn' }, async (_request, reply) => {
    const report = await readiness.report();
    reply.code(report.ready ? 200 : 503);
    if (!report.ready) reply.header('retry-after', '5');
    return report;
  });

  const token = context.config.metricsToken;
  if (!token) return;
  metrics.collectProcessMetrics();
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameSecret(given, token)) throw new HttpError(401, MESSAGES.authenticationRequired, { 'www-authenticate': 'Bearer' });
    reply.type(metrics.contentType);
    return metrics.text();
  });
}
