import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenChanged, type CachedBuild } from './build-cache';

/**
 * `npm run web`: builds the renderer and the web host only when what they read changed since their last build
 * (a hash of the sources, configurations and lockfile, kept in out/.build-stamps), makes the PGlite template when
 * absent, then runs the host. A second start with unchanged sources goes straight to the host; a change to the
 * renderer rebuilds the renderer alone, a change to the server or host the host alone.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const stampDir = join(root, 'out/.build-stamps');
const packageFiles = ['package.json', 'package-lock.json', 'tsconfig.json'];

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

await buildTimed(renderer);
await buildTimed(webHost);
const templateDir = join(root, '.data/pglite-template');
const { hasTemplate } = await import('../src-server/db/template');
if (!hasTemplate(templateDir)) {
  const { buildTemplate } = await import('../src-server/db/build-template');
  await buildTemplate(templateDir);
}

// The host runs in a process of its own: the bundle, not this script's TypeScript loader, with source maps. In a
// process group of its own too, so that Ctrl+C reaches it once, forwarded from here, not twice.
const host = spawn(process.execPath, ['--enable-source-maps', join(root, 'out/web/web-cli.js')], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => host.kill(signal));
host.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
