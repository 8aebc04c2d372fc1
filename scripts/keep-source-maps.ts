import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run dist`, after electron-builder: the build's source maps (left out of the asar by electron-builder.yml)
 * are kept beside the release, `release/source-maps-<version>/`, in the layout of out/ (main, preload, renderer),
 * to read a crash report's stack against the shipped code.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = (await import('../package.json', { with: { type: 'json' } })).default;
const target = join(root, 'release', `source-maps-${version}`);
let count = 0;
for (const file of readdirSync(join(root, 'out'), { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.map') || file.startsWith('web/')) continue;
  cpSync(join(root, 'out', file), join(target, file), { recursive: true });
  count += 1;
}
console.log(`${count} source maps kept in ${target}`);
