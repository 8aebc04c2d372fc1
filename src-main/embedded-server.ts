import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printOutboxMail } from '../src-server/console';
import { startEmbeddedServer } from '../src-server/embedded';
import { CLOSE_MESSAGE, previousClose } from './services/embedded-close';
import { createRollingLog } from './services/logs';

/**
 * The API inside the desktop app (an Electron utilityProcess): 127.0.0.1, a random port, PGlite in the user data
 * folder. On a first start without accounts the user creates the administrator (setup, with the token the main
 * process generated for this launch); the demo workspace (accounts, then in the background the app-user population
 * and sample audiences) only when the app was started with --demo. Tells the main process its address.
 */
const here = dirname(fileURLToPath(import.meta.url));
const parentPort = (
  process as unknown as {
    parentPort?: { postMessage(message: unknown): void; on(event: 'message', listener: (event: { data: unknown }) => void): void };
  }
).parentPort;

// A packaged app's stdout is read by nobody: the API logs into the user data folder beside the main process's.
// A folder it cannot write leaves the API on its default logger rather than stopped.
const log = process.env.BACKOFFICE_LOG_DIR ? await createRollingLog({ dir: process.env.BACKOFFICE_LOG_DIR, name: 'server' }).catch(() => null) : null;

// Read before the server opens the folder: whether the last run closed it in order (services/embedded-close.ts).
const lastClose = process.env.BACKOFFICE_DATA_DIR ? previousClose(process.env.BACKOFFICE_DATA_DIR) : 'new';
if (lastClose === 'unclean') log?.logger.warn('the embedded database was not closed cleanly last time: recovering');

startEmbeddedServer({
  logger: log?.logger,
  host: '127.0.0.1',
  port: 0,
  dataDir: process.env.BACKOFFICE_DATA_DIR,
  migrationsFolder: process.env.BACKOFFICE_MIGRATIONS ?? join(here, 'migrations'),
  templateDir: process.env.BACKOFFICE_PGLITE_TEMPLATE ?? join(here, 'pglite-template'),
  demo: process.env.BACKOFFICE_DEMO === '1',
  // The demo's app users and audiences are written in the background: the window works meanwhile.
  demoPopulation: process.env.BACKOFFICE_DEMO === '1',
  // The embedded default has no mail server: reset links go to the app's console whatever the log level.
  onOutboxMail: printOutboxMail,
  config: { resetLinkBase: 'backoffice://app', setupToken: process.env.BACKOFFICE_SETUP_TOKEN || undefined },
})
  .then((server) => {
    parentPort?.postMessage({
      type: 'ready',
      url: server.url,
      databaseKind: server.database.kind,
      demo: process.env.BACKOFFICE_DEMO === '1',
      previousClose: lastClose,
    });
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      void server.close().finally(() => process.exit(0));
    };
    // The app's quit asks by a message, on every OS (Windows delivers no SIGTERM); the signals stay for a terminal.
    parentPort?.on('message', (event) => (event.data as { type?: string } | null)?.type === CLOSE_MESSAGE.type && stop());
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  })
  .catch((error: unknown) => {
    parentPort?.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  });
