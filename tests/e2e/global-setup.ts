import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Builds the renderer (out/renderer), the web host (out/web) and the PGlite template, as `npm run web` does,
 * unless E2E_SKIP_BUILD=1 and a build exists.
 */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { buildTemplate } = await import('../../src-server/db/build-template');
  const { hasTemplate } = await import('../../src-server/db/template');
  if (!hasTemplate(`${root}/.data/pglite-template`)) await buildTemplate(`${root}/.data/pglite-template`);
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(`${root}/out/renderer/index.html`) && existsSync(`${root}/out/web/web-cli.js`)) return;
  const { build } = await import('vite');
  await build({ configFile: `${root}/src-renderer/vite.config.ts`, logLevel: 'warn' });
  await build({ configFile: `${root}/src-main/hosts/web.vite.config.ts`, logLevel: 'warn' });
}
