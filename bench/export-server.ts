import v8 from 'node:v8';
import pino from 'pino';
import { buildApp } from '../src-server/app';
import { openDatabase } from '../src-server/db/client';

/**
 * The API server of the targets export bench in a process of its own, as the desktop app runs it (an Electron
 * utilityProcess, or the team server): opens BENCH_EXPORT_DATABASE or the PGlite folder BENCH_EXPORT_PGLITE_DIR (already generated), listens on loopback and sends
 * its address to the parent over IPC. The parent reads this process's RSS from /proc. Ends on 'stop'.
 */
const url = process.env.BENCH_EXPORT_DATABASE;
const dataDir = process.env.BENCH_EXPORT_PGLITE_DIR;
if ((!url && !dataDir) || !process.send)
  throw new Error('export-server: run by bench/sections/targets-export.ts (BENCH_EXPORT_DATABASE or BENCH_EXPORT_PGLITE_DIR, IPC)');
const database = await openDatabase(url ? { url } : { dataDir });
const app = await buildApp({ db: database.db, dbKind: database.kind, logger: pino({ level: 'silent' }) });
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.send({ type: 'ready', url: address });
// BENCH_EXPORT_MEMLOG=1: where the resident memory goes (heap or outside it) while the export runs.
if (process.env.BENCH_EXPORT_MEMLOG === '1') {
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  setInterval(() => {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
    const spaces = v8.getHeapSpaceStatistics().map((space) => `${space.space_name.replace('_space', '')} ${mb(space.space_used_size)}`);
    console.log(
      `export server: rss ${mb(rss)} heapTotal ${mb(heapTotal)} heapUsed ${mb(heapUsed)} external ${mb(external)} arrayBuffers ${mb(arrayBuffers)} MB; ${spaces.join(', ')}`,
    );
  }, 1000).unref();
}
process.on('message', (message: { type?: string }) => {
  if (message?.type !== 'stop') return;
  void app
    .close()
    .then(() => database.close())
    .finally(() => process.exit(0));
});
