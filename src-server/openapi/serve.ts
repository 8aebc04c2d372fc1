import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './document';

/**
 * The reference page's policy: its own files only (scripts from 'self', no inline script), the API on this origin,
 * never framed. Swagger UI sets inline styles on its elements, hence 'unsafe-inline' for styles alone.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "base-uri 'none'",
  "connect-src 'self'",
  "font-src 'self' data:",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "img-src 'self' data:",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
].join('; ');

/**
 * The API reference of a team server: the OpenAPI document at /openapi.json and Swagger UI at /docs, its files
 * served from the swagger-ui-dist package (no CDN), under a Content-Security-Policy of their own (DOCS_CSP).
 * Registered by buildApp when `config.apiDocs` is on.
 */
export async function registerApiDocs(app: FastifyInstance, options: { metrics: boolean }): Promise<void> {
  const document = await buildOpenApiDocument(options);
  // @fastify/swagger's types name OpenAPI 2 and 3.0 documents only; it serves a 3.1 one as it is.
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  app.get('/openapi.json', { logLevel: 'warn' }, async () => document);
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: DOCS_CSP,
    // validatorUrl null: no badge fetched from swagger.io; the page reads /docs/json, the same document.
    uiConfig: { deepLinking: true, displayOperationId: true, validatorUrl: null },
    logLevel: 'warn',
  });
}
