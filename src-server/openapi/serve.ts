import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './document';

/**
 * The API reference of a team server: the OpenAPI document at /openapi.json and Swagger UI at /docs, its files
 * served from the swagger-ui-dist package (no CDN), under a Content-Security-Policy of their own (staticCSP:
 * 'self' plus the hashes of the page's inline parts). Registered by buildApp when `config.apiDocs` is on.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  const document = await buildOpenApiDocument();
  // @fastify/swagger's types name OpenAPI 2 and 3.0 documents only; it serves a 3.1 one as it is.
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  app.get('/openapi.json', { logLevel: 'warn' }, async () => document);
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { url: '/openapi.json', deepLinking: true, displayOperationId: true, tryItOutEnabled: false },
    logLevel: 'warn',
  });
}
