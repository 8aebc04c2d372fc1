import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, needsToken, operationIds, type Operation } from '@shared/contract';
import { describeAccess, type OpenApiDocument, type OpenApiOperation } from '../../src-server/openapi/document';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The OpenAPI document generated from the contract. It names every operation of the contract's registry
 * (a new feature's operations are covered without touching this file), with its access rule, its inputs and its
 * answers, and it is valid OpenAPI 3.1 for an outside validator. The team server serves it with its reference page.
 */
let document: OpenApiDocument;
let server: TestServer;

/** The document as the team server serves it (built once at its start by buildOpenApiDocument). */
beforeAll(async () => {
  server = await startTestServer({ config: { apiDocs: true } });
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('application/json');
  document = (await response.json()) as OpenApiDocument;
});
afterAll(() => server?.close());

/** The contract's Fastify path as OpenAPI writes it: `:id` → `{id}`, the wildcard `*` → `{path}`. */
function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{path}');
}

function documented(operation: Operation): OpenApiOperation | undefined {
  return document.paths?.[openApiPath(operation.path)]?.[operation.method.toLowerCase()];
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names every operation of the contract, once, under its own id', () => {
    const missing = operationIds.filter((id) => documented(contract[id] as Operation)?.operationId !== id);
    expect(missing, 'operations missing from the document').toEqual([]);
    const all = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    // Beside the contract: the probes and the job-events stream (/metrics only where METRICS_TOKEN turns it on).
    expect(all.sort()).toEqual([...operationIds, 'jobs.events', 'operations.health', 'operations.ready'].sort());
  });

  it('gives each operation its summary, its access rule (words and security requirement) and its inputs', () => {
    for (const id of operationIds) {
      const operation = contract[id] as Operation;
      const entry = documented(operation)!;
      expect(entry.summary, id).toBe(operation.summary);
      expect(entry.description, id).toContain(describeAccess(operation.access));
      const schemes = (entry.security ?? []).flatMap((requirement) => Object.keys(requirement)).sort();
      const expected = needsToken(operation) ? ['staffToken', ...(operation.serviceToken ? ['serviceToken'] : [])].sort() : [];
      expect(schemes, id).toEqual(expected);
      const parameters = entry.parameters ?? [];
      for (const name of Object.keys((operation.params as { shape?: object } | undefined)?.shape ?? {})) {
        expect(
          parameters.some((parameter) => parameter.in === 'path' && parameter.name === name),
          `${id} path ${name}`,
        ).toBe(true);
      }
      for (const name of Object.keys((operation.query as { shape?: object } | undefined)?.shape ?? {})) {
        expect(
          parameters.some((parameter) => parameter.in === 'query' && parameter.name === name),
          `${id} query ${name}`,
        ).toBe(true);
      }
      if (operation.body) expect(Object.keys(entry.requestBody?.content ?? {}), id).toEqual(['application/json']);
      if (operation.multipart) {
        const multipart = entry.requestBody?.content['multipart/form-data'] as { schema: { properties: Record<string, unknown> } };
        const fields = Object.keys((operation.multipart.fields as unknown as { shape: object }).shape);
        expect(Object.keys(multipart.schema.properties).sort(), id).toEqual([...fields, 'file'].sort());
      }
    }
  });

  it('lists the fields only some roles write on the operations that write them (x-field-access and the description)', () => {
    const update = documented(contract['adverts.update'] as Operation) as OpenApiOperation & { 'x-field-access'?: unknown };
    expect(update['x-field-access']).toEqual([
      { field: 'pixelTrackingUrl', access: 'Staff holding ADMIN.' },
      { field: 'quiz.votersCountDefault', access: 'Staff holding ADMIN.' },
    ]);
    expect(update.description).toContain('`pixelTrackingUrl` changes only for Staff holding ADMIN; sent unchanged, it passes (403 otherwise).');
    for (const id of operationIds) {
      const operation = contract[id] as Operation;
      const entry = documented(operation) as OpenApiOperation & { 'x-field-access'?: unknown[] };
      expect(entry['x-field-access']?.length ?? 0, id).toBe(operation.fieldAccess?.length ?? 0);
    }
  });

  it('gives each operation its success status and the { errorMsg, field } shape of every error answer', () => {
    expect(document.components?.schemas?.ApiError).toMatchObject({
      type: 'object',
      properties: { errorMsg: { type: 'string' }, field: { type: 'string' } },
      required: ['errorMsg'],
    });
    for (const id of operationIds) {
      const operation = contract[id] as Operation;
      const responses = documented(operation)!.responses ?? {};
      const statuses = Object.keys(responses);
      expect(statuses, id).toContain(String(operation.successStatus ?? 200));
      expect(statuses, id).toEqual(expect.arrayContaining(['4XX', '503', '5XX']));
      if (needsToken(operation)) expect(statuses, id).toContain('401');
      if (operation.params || operation.query || operation.body || operation.multipart) expect(statuses, id).toContain('400');
      if (operation.params) expect(statuses, id).toContain('404');
      if (operation.body || operation.multipart) expect(statuses, id).toContain('413');
      for (const status of ['429', '503'].filter((status) => responses[status])) {
        expect(responses[status].headers, `${id} ${status}`).toEqual({
          'Retry-After': expect.objectContaining({ schema: { type: 'integer', minimum: 1 } }),
        });
      }
      for (const status of statuses.filter((status) => /^[45]/.test(status))) {
        expect(responses[status].content, `${id} ${status}`).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } });
      }
    }
  });
});

describe('what a caller meets beside the contract', () => {
  it('documents the 429 of the rate-limited operations and the 409 of writes', () => {
    expect(Object.keys(document.paths!['/authenticate'].post.responses!)).toEqual(expect.arrayContaining(['400', '413', '429', '503']));
    expect(Object.keys(document.paths!['/authenticate'].post.responses!)).not.toContain('409');
    expect(Object.keys(document.paths!['/csv/import'].post.responses!)).toEqual(expect.arrayContaining(['401', '403', '409']));
  });

  it('documents /health, /ready and the job-events stream, and /metrics only where it is on', async () => {
    expect(document.paths!['/health'].get).toMatchObject({ operationId: 'operations.health', security: [] });
    expect(Object.keys(document.paths!['/ready'].get.responses!)).toEqual(expect.arrayContaining(['200', '503']));
    expect(document.paths!['/jobs/events'].get).toMatchObject({
      operationId: 'jobs.events',
      security: [{ staffToken: [] }],
      responses: { 200: { content: { 'text/event-stream': expect.anything() } } },
    });
    expect(document.paths!['/metrics']).toBeUndefined();
    const withMetrics = await startTestServer({ config: { apiDocs: true, metricsToken: 'documented-metrics-token-of-32-chars' } });
    try {
      const served = (await (await fetch(`${withMetrics.url}/openapi.json`)).json()) as OpenApiDocument;
      expect(served.paths!['/metrics'].get).toMatchObject({ operationId: 'operations.metrics', security: [{ metricsToken: [] }] });
    } finally {
      await withMetrics.close();
    }
  });
});

describe('the API reference of the team server', () => {
  it('serves at /openapi.json the OpenAPI 3.1 document of this API', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Back-office platform API');
    expect(document.components?.securitySchemes).toHaveProperty('serviceToken');
  });

  it('serves Swagger UI at /docs from its own files (no CDN), under a Content-Security-Policy', async () => {
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      expect(asset, 'served by this server').not.toMatch(/^(https?:)?\/\//);
      expect((await fetch(new URL(asset, `${server.url}/docs/`))).status, asset).toBe(200);
    }
    // The page reads the same document at /docs/json.
    expect(await (await fetch(`${server.url}/docs/json`)).json()).toEqual(document);
  });

  it('is off unless asked (the desktop app and the web host do not ask)', async () => {
    const plain = await startTestServer();
    try {
      for (const path of ['/openapi.json', '/docs/']) {
        const response = await plain.request('GET', path);
        expect(response.status, path).toBe(404);
        expect(response.body.errorMsg, path).toContain(path);
      }
    } finally {
      await plain.close();
    }
  });
});
