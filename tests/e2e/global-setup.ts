import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Folder of the renderer the browser tests serve: out/renderer, or E2E_RENDERER_DIR (a run of its own, so a build
 * started by another run on the same checkout does not empty the folder under this one's pages).
 */
export const e2eRendererDir = (root: string) => process.env.E2E_RENDERER_DIR ?? `${root}/out/renderer`;

/**
 * Builds the renderer with the desktop build's own configuration (electron.vite.config.ts: the one renderer both
 * hosts serve) into out/renderer or E2E_RENDERER_DIR, the web host (out/web) and the PGlite template, as
 * `npm run web` does, unless E2E_SKIP_BUILD=1 and a build exists (CI: the renderer `npm run build` wrote).
 */
export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { buildTemplate } = await import('../../src-server/db/build-template');
  const { hasTemplate } = await import('../../src-server/db/template');
  if (!hasTemplate(`${root}/.data/pglite-template`)) await buildTemplate(`${root}/.data/pglite-template`);
  const rendererDir = e2eRendererDir(root);
  if (process.env.E2E_SKIP_BUILD === '1' && existsSync(`${rendererDir}/index.html`) && existsSync(`${root}/out/web/web-cli.js`)) {
    console.log(`e2e: serving the renderer built in ${rendererDir}`);
    return;
  }
  const { buildRenderer } = await import('../../scripts/desktop-build');
  await buildRenderer(rendererDir, 'warn');
  const { build } = await import('vite');
  await build({ configFile: `${root}/src-main/hosts/web.vite.config.ts`, logLevel: 'warn' });
}
