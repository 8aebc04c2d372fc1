import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareWebHost } from './web-builds';

/**
 * `npm run web`: builds what changed (scripts/web-builds.ts), then runs the host. A second start with unchanged
 * sources goes straight to the host.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
await prepareWebHost();

// The host runs in a process of its own: the bundle, not this script's TypeScript loader, with source maps. In a
// process group of its own too, so that Ctrl+C reaches it once, forwarded from here, not twice.
const host = spawn(process.execPath, ['--enable-source-maps', join(root, 'out/web/web-cli.js')], {
  cwd: root,
  stdio: 'inherit',
  detached: true,
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => host.kill(signal));
host.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
