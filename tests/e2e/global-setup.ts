import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Builds the renderer into out/renderer and the PGlite template, as `npm run web` does, unless E2E_SKIP_BUILD=1
 * and a build exists.
 */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { buildTemplate, hasTemplate } = await import('../../src-server/db/template');
  if (!hasTemplate(`${root}/.data/pglite-template`)) await buildTemplate(`${root}/.data/pglite-template`);
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(`${root}/out/renderer/index.html`)) return;
  const { build } = await import('vite');
  await build({ configFile: `${root}/src-renderer/vite.config.ts`, logLevel: 'warn' });
}
