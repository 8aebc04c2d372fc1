import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contract, errorSchema, needsToken, operationIds, type Operation, type OperationId } from '@shared/contract';
import type { Access } from '@shared/roles';
import { operationRoute } from '../operations';
import { registerOperatorDocs } from './operator-routes';

/** The parts of an OpenAPI 3.1 document this module and its tests read; the rest is @fastify/swagger's. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
  [key: string]: unknown;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses?: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}

/**
 * The OpenAPI 3.1 document of the platform API, generated from the contract (src-shared/contract, every operation
 * of its registry): @fastify/swagger collects the routes, registered from the same zod schemas as the server's
 * (operationRoute), and fastify-type-provider-zod's transform turns them into JSON Schema 2020-12 with zod's own
 * exporter, requests as they are read (`io: input`) and answers as they are written (`io: output`). Nothing of it
 * is written by hand but the prose around the schemas: the access rule and the shared error answers.
 */
export async function buildOpenApiDocument(options: { metrics?: boolean } = {}): Promise<OpenApiDocument> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Back-office platform API',
        version: apiVersion(),
        description: API_DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: [
        ...tagsOf(operationIds),
        { name: 'jobs', description: 'The job-events stream.' },
        { name: 'operations', description: "The operator's probes: liveness, readiness, metrics." },
      ],
      components: {
        securitySchemes: {
          staffToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A staff access token: `accessToken.value` of POST /authenticate, renewed with POST /authenticate/refresh.',
          },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: "The server's METRICS_TOKEN: accepted by GET /metrics only.",
          },
          serviceToken: {
            type: 'http',
            scheme: 'bearer',
            description: "The app platform's service token, the server's BACKOFFICE_INGEST_TOKEN: accepted by the operations that name it only.",
          },
        },
      },
    },
    transform: createJsonSchemaTransform({ skipList: [] }),
    transformObject: createJsonSchemaTransformObject({}),
  });
  for (const id of operationIds) {
    const operation = contract[id] as Operation;
    const route = operationRoute(operation);
    app.route({ ...route, schema: { ...route.schema, ...documentation(id, operation) }, handler: async () => undefined });
  }
  registerOperatorDocs(app, { metrics: options.metrics ?? true });
  await app.ready();
  const document = app.swagger() as unknown as OpenApiDocument;
  await app.close();
  return withRetryAfter(withNamedWildcards(withoutUnusedSchemas(document)));
}

/**
 * A Fastify wildcard (`/cdn/*`) is the rest of the path; an OpenAPI path parameter needs a name, and its value
 * holds no `/`: `{path}` stands for it, its description says what it holds.
 */
function withNamedWildcards(document: OpenApiDocument): OpenApiDocument {
  const paths = Object.entries(document.paths ?? {}).map(([path, item]) => {
    if (!path.endsWith('{*}')) return [path, item] as const;
    const named = JSON.parse(JSON.stringify(item), (key, value: unknown) =>
      key === 'parameters' && Array.isArray(value)
        ? value.map((parameter: { in: string; name: string }) =>
            parameter.in === 'path' && parameter.name === '*'
              ? { ...parameter, name: 'path', description: 'The rest of the path: the storage key, whose `/` an OpenAPI path parameter cannot show.' }
              : parameter,
          )
        : value,
    ) as Record<string, OpenApiOperation>;
    return [`${path.slice(0, -'{*}'.length)}{path}`, named] as const;
  });
  return { ...document, paths: Object.fromEntries(paths) };
}

/** The transform names every registered schema twice (as read and as written): keep those the document uses. */
function withoutUnusedSchemas(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas ?? {};
  const text = JSON.stringify({ ...document, components: { ...document.components, schemas: {} } });
  const used = Object.fromEntries(Object.entries(schemas).filter(([name]) => text.includes(`"#/components/schemas/${name}"`)));
  return { ...document, components: { ...document.components, schemas: used } };
}

/** The version of package.json: the API's version (read from the checkout `npm run server` runs in). */
function apiVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

const API_DESCRIPTION = [
  'The API of the back-office and of the platform around it: the desktop app calls every operation with a staff',
  'account; the mobile app platform feeds the population (POST /population/users, POST /population/events) and asks',
  'the decisioning calls (POST /v2/advert, POST /advert) with its service token.',
  '',
  'Every error answer is `{ errorMsg, field? }`: `errorMsg` is a French sentence meant for the user, `field` names',
  'the input field it is about (`3.externalId` for a row of an array body).',
].join('\n');

/** The shared error answer, named in the document as `ApiError`. */
const apiError = errorSchema.meta({ id: 'ApiError', description: 'An error answer: a French message for the user, and the field it is about.' });

/** The feature an operation belongs to: the first segment of its id (`projects.list` → projects). */
function tagOf(id: OperationId): string {
  return id.split('.')[0];
}

function tagsOf(ids: readonly OperationId[]): { name: string; description: string }[] {
  return [...new Set(ids.map(tagOf))].sort().map((name) => ({ name, description: `The ${name} operations.` }));
}

/** The access rule of spec §6 in words (ADMIN passes every role check but this-role). */
export function describeAccess(rule: Access): string {
  switch (rule.kind) {
    case 'public':
      return 'Public: no token.';
    case 'authenticated':
      return 'Any signed-in staff account, whatever its roles.';
    case 'anyOf':
    case 'allOf': {
      const roles = rule.roles.filter((role) => role !== 'ADMIN');
      if (!roles.length) return 'Staff holding ADMIN.';
      if (roles.length === 1) return `Staff holding ${roles[0]}, or ADMIN.`;
      return `Staff holding ${rule.kind === 'anyOf' ? 'one' : 'all'} of ${roles.join(', ')}, or ADMIN.`;
    }
    case 'thisRole':
      return `Staff holding ${rule.role} (ADMIN alone does not pass).`;
    case 'notRole':
      return `Any signed-in staff account not holding ${rule.role}, or ADMIN.`;
  }
}

function restricted(rule: Access): boolean {
  return rule.kind !== 'public' && rule.kind !== 'authenticated';
}

function errorAnswer(description: string) {
  return { description, content: { 'application/json': { schema: apiError } } };
}

/** 429 and 503 answers carry Retry-After (set after the transform, which keeps no response headers). */
function withRetryAfter(document: OpenApiDocument): OpenApiDocument {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const status of ['429', '503']) {
        const answer = operation.responses?.[status];
        if (answer)
          answer.headers = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } };
      }
    }
  }
  return document;
}

/** Operations behind a rate limit (auth/rate-limit.ts, the URL pre-fill's per-account and global limits). */
const RATE_LIMITED: readonly OperationId[] = ['auth.signIn', 'password.reset', 'url.parse'];

/**
 * The error answers an operation can give, from what it declares: its inputs (400, 413 for a body), its access rule
 * (401, 403), a path naming a resource (404), a write by an account (409: the state refuses it), a rate limit (429),
 * and for every one 503 while the server starts or is saturated. The ranges stay for the rest (an unknown path, an
 * unsupported media type, a failure).
 */
function errorAnswers(id: OperationId, operation: Operation) {
  const takesInput = Boolean(operation.params || operation.query || operation.body || operation.multipart);
  return {
    ...(takesInput ? { 400: errorAnswer('Invalid input: `field` names the first field refused.') } : {}),
    ...(needsToken(operation) ? { 401: errorAnswer('No bearer token, or an invalid or expired one.') } : {}),
    ...(restricted(operation.access) ? { 403: errorAnswer('The account does not hold the roles the operation needs.') } : {}),
    ...(operation.params ? { 404: errorAnswer('What the path names does not exist, or this account may not see it.') } : {}),
    ...(operation.method !== 'GET' && needsToken(operation)
      ? { 409: errorAnswer('The current state refuses the change (already used, already running, linked elsewhere, finished…).') }
      : {}),
    ...(operation.body || operation.multipart ? { 413: errorAnswer('The body is larger than the operation accepts.') } : {}),
    ...(RATE_LIMITED.includes(id) ? { 429: errorAnswer('Too many attempts: try again after `Retry-After` seconds.') } : {}),
    '4XX': errorAnswer('Refused otherwise: an unknown path, an unsupported media type…'),
    503: errorAnswer(
      'The server is starting (its audience engine is being built; GET /ready says so) or saturated (password checks): try again after `Retry-After` seconds.',
    ),
    '5XX': errorAnswer('The server failed; the message says nothing of its internals.'),
  };
}

/** What the document adds to an operation's route: its words, its security, its multipart body and its errors. */
function documentation(id: OperationId, operation: Operation) {
  const access = [`**Access:** ${describeAccess(operation.access)}`];
  if (operation.serviceToken) access.push("Also the app platform's service token (BACKOFFICE_INGEST_TOKEN).");
  if (
    (operation.method !== 'GET' || operation.sideEffects === 'creates') &&
    !operation.multipart &&
    (needsToken(operation) || operation.serviceToken)
  ) {
    if (operation.method === 'GET') access.push('**This GET creates a record**: send it again only with an Idempotency-Key.');
    access.push(
      '**Idempotency-Key** (optional header, 8–128 letters, digits, `-` or `_`): the same call sent again with the same key is answered once, with the first answer (`Idempotent-Replayed: true`), for a day; 409 while the first is still running, 422 for the key reused with another input.',
    );
  }
  for (const rule of operation.fieldAccess ?? []) {
    access.push(`\`${rule.field}\` changes only for ${describeAccess(rule.access).replace(/\.$/, '')}; sent unchanged, it passes (403 otherwise).`);
  }
  const success = operation.successStatus ?? 200;
  return {
    operationId: id,
    summary: operation.summary,
    description: access.join(' '),
    tags: [tagOf(id)],
    ...(operation.fieldAccess
      ? { 'x-field-access': operation.fieldAccess.map((rule) => ({ field: rule.field, access: describeAccess(rule.access) })) }
      : {}),
    security: needsToken(operation)
      ? ([{ staffToken: [] }, ...(operation.serviceToken ? [{ serviceToken: [] }] : [])] as Record<string, string[]>[])
      : [],
    ...(operation.multipart ? multipartBody(operation) : {}),
    response: { [success]: successAnswer(operation), ...errorAnswers(id, operation) },
  };
}

function successAnswer(operation: Operation) {
  if (operation.answersFile) return { description: 'The file, streamed.', content: { 'text/csv': { schema: z.string() } } };
  if (operation.answersMedia) {
    return { description: 'The file, as its bytes say.', content: { '*/*': { schema: z.string().meta({ format: 'binary' }) } } };
  }
  return { description: 'Success.', content: { 'application/json': { schema: operation.response } } };
}

/** A file upload: the text fields of the contract's multipart spec, then one `file`. */
function multipartBody(operation: Operation) {
  const { fields, maxFileBytes, formats } = operation.multipart!;
  const file = z.string().meta({
    format: 'binary',
    contentMediaType: 'application/octet-stream',
    description: `One file (${formats.join(', ')}), ${maxFileBytes} bytes at most.`,
  });
  return {
    consumes: ['multipart/form-data'],
    body: (fields as z.ZodObject).extend({ file }),
  };
}
