import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenChanged, type CachedBuild } from './build-cache';

/**
 * What `npm run web` needs before its host starts: the renderer and the web host built only when what they read
 * changed since their last build (a hash of the sources, configurations and lockfile, kept in out/.build-stamps),
 * and the PGlite template made when absent. A change to the renderer rebuilds the renderer alone, a change to the
 * server or host the host alone.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const stampDir = join(root, 'out/.build-stamps');
const packageFiles = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json'];

const renderer: CachedBuild = {
  name: 'renderer',
  inputs: ['src-renderer', 'src-shared', 'electron.vite.config.ts', 'tsconfig.renderer.json', ...packageFiles],
  marker: 'out/renderer/index.html',
  build: async () => (await import('./desktop-build')).buildRenderer(join(root, 'out/renderer'), 'warn'),
};

const webHost: CachedBuild = {
  name: 'web-host',
  inputs: ['src-main', 'src-server', 'src-shared', 'src-preload', 'tsconfig.node.json', ...packageFiles],
  marker: 'out/web/web-cli.js',
  build: async () => {
    const { build } = await import('vite');
    await build({ configFile: join(root, 'src-main/hosts/web.vite.config.ts'), logLevel: 'warn' });
  },
};

async function buildTimed(target: CachedBuild): Promise<void> {
  const started = performance.now();
  const built = await buildWhenChanged(root, stampDir, target);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(built ? `${target.name}: built in ${seconds} s` : `${target.name}: unchanged, not rebuilt (${seconds} s)`);
}

export async function prepareWebHost(): Promise<void> {
  await buildTimed(renderer);
  await buildTimed(webHost);
  const templateDir = join(root, '.data/pglite-template');
  const { hasTemplate } = await import('../src-server/db/template');
  if (!hasTemplate(templateDir)) {
    const { buildTemplate } = await import('../src-server/db/build-template');
    await buildTemplate(templateDir);
  }
}
