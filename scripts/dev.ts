import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDesktop, watchRenderer } from './desktop-build';

/**
 * The development loop: the renderer rebuilt on every change (Vite watch mode), served by
 * - `npm run dev`: the desktop app (main and preload built once; reload the window with Ctrl+R after a change,
 *   restart for a change of src-main or src-preload), or
 * - `npm run web:dev`: the web host, for machines without Electron (reload the page after a change).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const electron = process.argv.includes('--electron');

if (electron) {
  await buildDesktop();
  const watcher = await watchRenderer(join(root, 'out/renderer'));
  // The binary of the electron package (downloaded on first use since Electron 42).
  const binary = createRequire(import.meta.url)('electron') as string;
  const app = spawn(binary, [root, ...process.argv.slice(2).filter((arg) => arg !== '--electron')], { stdio: 'inherit' });
  app.on('exit', (code) => void watcher.close().finally(() => process.exit(code ?? 0)));
} else {
  const rendererDir = join(root, '.data/web-dev/renderer');
  const watcher = await watchRenderer(rendererDir);
  const host = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-main/hosts/web-cli.ts')], {
    stdio: 'inherit',
    env: { ...process.env, BACKOFFICE_WEB_RENDERER_DIR: rendererDir },
  });
  const stop = () => host.kill('SIGTERM');
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  host.on('exit', (code) => void watcher.close().finally(() => process.exit(code ?? 0)));
}
