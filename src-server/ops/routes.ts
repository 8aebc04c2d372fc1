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
/** A shorter METRICS_TOKEN stops the server at start: it guards the metrics and /ready's details. */
export const MIN_METRICS_TOKEN_LENGTH = 32;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the request carries the metrics token as its bearer token (never with no token configured). */
function hasMetricsToken(request: FastifyRequest, token: string | undefined): boolean {
  const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
  return token !== undefined && token !== '' && sameSecret(given, token);
}

/**
 * The operator's routes (docs/operations.md, "Monitor"): GET /health (liveness: the process answers, nothing
 * else is touched), GET /ready (readiness: 200 only when every check passes, else 503; each check's reason in French
 * and English only to the METRICS_TOKEN bearer, the public gets `{ ready }`), GET /metrics (Prometheus text, only
 * with METRICS_TOKEN, as a bearer token). Counts every answer.
 */
export function registerOperatorRoutes(app: FastifyInstance, context: ServerContext): void {
  const { metrics, readiness } = context;
  const token = context.config.metricsToken;
  if (token !== undefined && token.length < MIN_METRICS_TOKEN_LENGTH) {
    throw new Error(
      `METRICS_TOKEN must be at least ${MIN_METRICS_TOKEN_LENGTH} characters long (it has ${token.length}); generate one with: openssl rand -hex 32`,
    );
  }
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

  // The checks name the set-up (database, storage, other instances): details only for the operator's token.
  app.get('/ready', { logLevel: 'warn' }, async (request, reply) => {
    const report = await readiness.report();
    reply.code(report.ready ? 200 : 503);
    if (!report.ready) reply.header('retry-after', '5');
    return hasMetricsToken(request, token) ? report : { ready: report.ready };
  });

  if (!token) return;
  metrics.collectProcessMetrics();
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    if (!hasMetricsToken(request, token)) throw new HttpError(401, MESSAGES.authenticationRequired, { 'www-authenticate': 'Bearer' });
    reply.type(metrics.contentType);
    return metrics.text();
  });
}
