import { buildDesktop, buildRenderer } from './desktop-build';

/** `npm run build` (the desktop app into out/) or `tsx scripts/build.ts --renderer` (out/renderer alone). */
const started = performance.now();
const rendererOnly = process.argv.includes('--renderer');
await (rendererOnly ? buildRenderer() : buildDesktop());
console.log(`${rendererOnly ? 'Renderer' : 'Desktop app'} built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
