import { resolve } from 'node:path';
import { buildTemplate } from '../src-server/db/build-template';
import { hasTemplate } from '../src-server/db/template';

/** `tsx scripts/build-pglite-template.ts [folder] [--force]`: the migrated PGlite template for fast first starts. */
const args = process.argv.slice(2);
const target = resolve(args.find((arg) => !arg.startsWith('--')) ?? '.data/pglite-template');
if (hasTemplate(target) && !args.includes('--force')) {
  console.log(`PGlite template present: ${target}`);
} else {
  const started = performance.now();
  await buildTemplate(target);
  console.log(`PGlite template built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${target}`);
}
