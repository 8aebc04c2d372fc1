import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The desktop build (electron.vite.config.ts: main, preload, renderer) and the renderer alone, each written into a
 * staging folder beside its destination and then renamed into place: a web host or a test run reading out/ never
 * sees a folder emptied or half written by a build.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const configFile = join(root, 'electron.vite.config.ts');
const targets = ['main', 'preload', 'renderer'] as const;

/** Replaces `destination` by `built` with two renames (the old one removed after). */
function moveIntoPlace(built: string, destination: string): void {
  const old = `${destination}.old-${process.pid}`;
  mkdirSync(dirname(destination), { recursive: true });
  if (existsSync(destination)) renameSync(destination, old);
  renameSync(built, destination);
  rmSync(old, { recursive: true, force: true });
}

/** `npm run build`: every target of the desktop app into `outRoot` (out/), source maps beside the code. */
export async function buildDesktop(outRoot = join(root, 'out')): Promise<void> {
  const { build } = await import('electron-vite');
  const staging = join(outRoot, `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    await build({ configFile, root, build: { outDir: staging } });
    for (const target of targets) moveIntoPlace(join(staging, target), join(outRoot, target));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The renderer alone, from the same electron-vite configuration as the desktop build (one renderer for both
 * hosts), into `destination` (out/renderer, or a test run's own folder): what `npm run web` and the browser tests
 * serve when no desktop build is wanted.
 */
export async function buildRenderer(destination = join(root, 'out/renderer'), logLevel: 'info' | 'warn' = 'info'): Promise<void> {
  const { resolveConfig } = await import('electron-vite');
  const { build } = await import('vite');
  const target = resolve(destination);
  const staging = join(dirname(target), `.${basename(target)}.staging-${process.pid}`);
  // What electron-vite's own build sets before resolving: the renderer preset reads it.
  process.env.NODE_ENV_ELECTRON_VITE = 'production';
  const resolved = await resolveConfig({ configFile, root, logLevel, build: { outDir: staging } }, 'build', 'production');
  const renderer = resolved.config?.renderer;
  if (!renderer) throw new Error('electron.vite.config.ts has no renderer');
  rmSync(staging, { recursive: true, force: true });
  try {
    await build(renderer);
    moveIntoPlace(join(staging, 'renderer'), target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Development: the renderer rebuilt by Vite's watch mode (only the modules a change touches, in a few seconds)
 * into `destination`, from the same configuration, unminified. The folder is not emptied between builds, so an
 * open page keeps its chunks until it is reloaded. Resolves once the first build is written.
 */
export async function watchRenderer(destination: string): Promise<{ close(): Promise<void> }> {
  const { resolveConfig } = await import('electron-vite');
  const { build } = await import('vite');
  process.env.NODE_ENV_ELECTRON_VITE = 'production';
  const resolved = await resolveConfig({ configFile, root }, 'build', 'development');
  const renderer = resolved.config?.renderer;
  if (!renderer) throw new Error('electron.vite.config.ts has no renderer');
  const watcher = (await build({
    ...renderer,
    build: { ...renderer.build, outDir: resolve(destination), emptyOutDir: false, minify: false, watch: {} },
  })) as { on(event: 'event', listener: (event: { code: string; error?: Error }) => void): void; close(): Promise<void> };
  await new Promise<void>((ready, failed) =>
    watcher.on('event', (event) => {
      if (event.code === 'END') ready();
      if (event.code === 'ERROR') failed(event.error);
    }),
  );
  return watcher;
}
