import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API_PRODUCT } from '@shared/api-identity';
import { errorSchema } from '@shared/contract';
import { JOB_EVENT_SSE_NAME, JOB_EVENTS_PATH, jobEventSchema } from '@shared/jobs';

/** The fields of a job event's data, from the schema main checks them with. */
const JOB_EVENT_FIELDS = Object.keys(jobEventSchema.shape)
  .map((name) => `\`${name}\``)
  .join(', ');

const apiError = errorSchema.meta({ id: 'ApiError' });
const error = (description: string) => ({ description, content: { 'application/json': { schema: apiError } } });

const refused = error('Refused: a request this route cannot read (a wrong method, a bad header…).');

const readinessSchema = z
  .object({
    ready: z.boolean(),
    checks: z
      .array(
        z.object({
          name: z.string().meta({ description: '`database`, `migrations` or `audiences`.' }),
          ok: z.boolean(),
          errorMsg: z.string().optional().meta({ description: 'Why not, in French, for people.' }),
          reason: z.string().optional().meta({ description: 'Why not, in English, for tools and logs.' }),
        }),
      )
      .optional()
      .meta({ description: 'Only to the METRICS_TOKEN bearer: the public learns ready or not.' }),
    warnings: z
      .array(z.object({ name: z.string(), errorMsg: z.string(), reason: z.string() }))
      .optional()
      .meta({
        description:
          'Only to the METRICS_TOKEN bearer: what an operator must know that does not stop this instance (uploads in a local folder on a shared database).',
      }),
  })
  .meta({ id: 'Readiness' });

const OPERATIONS_TAG = 'operations';

/**
 * The routes the contract does not hold, as a caller meets them (src-server/ops/routes.ts, src-server/jobs): the
 * probes of the operator's load balancer and monitoring, and the job-events stream. /metrics only where it is on.
 */
export function registerOperatorDocs(app: FastifyInstance, options: { metrics: boolean }): void {
  const noop = async () => undefined;
  app.get('/health', {
    schema: {
      operationId: 'operations.health',
      summary: 'Liveness: the process answers (the database is not touched).',
      tags: [OPERATIONS_TAG],
      security: [],
      response: {
        200: {
          description: 'Alive.',
          content: {
            'application/json': {
              schema: z.object({
                ok: z.literal(true),
                database: z.enum(['pglite', 'postgresql']),
                product: z.literal(API_PRODUCT).meta({ description: 'Says this is the back-office API (the desktop app checks it).' }),
                apiVersion: z.number().int().meta({ description: 'The API generation; the desktop app refuses one it does not speak.' }),
              }),
            },
          },
        },
        '4XX': refused,
      },
    },
    handler: noop,
  });
  app.get('/ready', {
    schema: {
      operationId: 'operations.ready',
      summary: 'Readiness: the database answers, its migrations are this version’s and the audience engine is built and following.',
      description: 'A load balancer sends traffic to an instance only while this answers 200.',
      tags: [OPERATIONS_TAG],
      security: [],
      response: {
        200: { description: 'Ready.', content: { 'application/json': { schema: readinessSchema } } },
        503: {
          description: 'Not ready (`Retry-After` seconds); to the METRICS_TOKEN bearer, each failed check says why.',
          content: { 'application/json': { schema: readinessSchema } },
        },
        '4XX': refused,
      },
    },
    handler: noop,
  });
  if (options.metrics) {
    app.get('/metrics', {
      schema: {
        operationId: 'operations.metrics',
        summary: 'Prometheus metrics (text exposition format 0.0.4).',
        description: 'Only with the server’s METRICS_TOKEN as bearer token (docs/operations.md, "Monitor").',
        tags: [OPERATIONS_TAG],
        security: [{ metricsToken: [] }],
        response: {
          200: { description: 'The metrics.', content: { 'text/plain': { schema: z.string() } } },
          401: error('No METRICS_TOKEN bearer token, or another one.'),
        },
      },
      handler: noop,
    });
  }
  app.get(JOB_EVENTS_PATH, {
    schema: {
      operationId: 'jobs.events',
      summary: 'The progress of the long jobs the account may see (push campaigns, CSV imports…), as server-sent events.',
      description: [
        '**Access:** Any signed-in staff account; each event goes to the accounts and roles its job names.',
        `Each event is \`event: ${JOB_EVENT_SSE_NAME}\` with \`data:\` one JSON object: ${JOB_EVENT_FIELDS}. A comment line`,
        'every 20 s keeps proxies from closing a quiet stream. The stream ends when the access token expires: reconnect',
        'with a refreshed one. See docs/job-events.md.',
      ].join(' '),
      tags: ['jobs'],
      security: [{ staffToken: [] }],
      response: {
        200: {
          description: `A text/event-stream of \`${JOB_EVENT_SSE_NAME}\` events whose data is a JobEvent.`,
          content: { 'text/event-stream': { schema: z.string().meta({ description: 'Server-sent events.' }) } },
        },
        401: error('No bearer token, or an invalid or expired one.'),
      },
    },
    handler: noop,
  });
}
