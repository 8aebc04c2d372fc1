import { seedDataDirFromTemplate } from './db/template';
import type { RunningServer, StartOptions } from './server';

/**
 * The buffer cache of the embedded database: one staff member's workplace, where PGlite's default 128MB cost 0.4 s
 * of every start (0.73 – 0.98 s to ready against 0.30 – 0.50 s at 32MB) and as much memory. A team server on
 * PGlite keeps the default.
 */
const EMBEDDED_SHARED_BUFFERS = '32MB';

/**
 * The API embedded in the desktop app and in the web host: PGlite in the user's data folder. A first start copies
 * the template (file work) while the server's modules load (CPU work), a third of its time.
 */
export async function startEmbeddedServer(options: StartOptions): Promise<RunningServer> {
  const [, { startServer }] = await Promise.all([
    options.dataDir ? seedDataDirFromTemplate(options.dataDir, options.templateDir) : null,
    import('./server'),
  ]);
  return startServer({ sharedBuffers: EMBEDDED_SHARED_BUFFERS, ...options });
}
