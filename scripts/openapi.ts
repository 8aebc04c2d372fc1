import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildOpenApiDocument } from '../src-server/openapi/document';

/**
 * `tsx scripts/openapi.ts [file]`: writes the OpenAPI document generated from the contract (default
 * test-results/openapi.json), for the outside tools: `npm run lint:api` (Redocly) and the Prism run.
 */
async function main() {
  const file = resolve(process.argv[2] ?? 'test-results/openapi.json');
  const document = await buildOpenApiDocument();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`OpenAPI document: ${Object.keys(document.paths ?? {}).length} paths → ${file}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
