import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createRollingLog } from '../services/logs';
import { startWebHost } from './web';
import { closeOnSignals, printDemoAccounts, printOutboxMail, runMain } from '../../src-server/console';

/**
 * `npm run web`: the back-office in a browser, with the API embedded unless API_URL names a team server. Runs
 * bundled (out/web/web-cli.js, see web.vite.config.ts) or from source under tsx: both sit two folders down.
 */
async function main() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const dataDir = resolve(process.env.BACKOFFICE_DATA_DIR ?? resolve(root, '.data/web'));
  // The console shows what LOG_LEVEL asks; the files keep 'info' and up for the About page's diagnostics.
  const logDir = resolve(dataDir, 'logs');
  const files = await createRollingLog({ dir: logDir, name: 'web' });
  const consoleLevel = (process.env.LOG_LEVEL ?? 'warn') as pino.Level;
  const logger = pino(
    { level: pino.levels.values[consoleLevel]! < pino.levels.values.info! ? consoleLevel : 'info', redact: files.redact },
    pino.multistream([
      { level: consoleLevel, stream: process.stdout },
      { level: 'info', stream: files.stream },
    ]),
  );
  const host = await startWebHost({
    // `npm run web:dev` serves its watch build of the renderer and reads it again after each rebuild.
    rendererDir: resolve(process.env.BACKOFFICE_WEB_RENDERER_DIR ?? resolve(root, 'out/renderer')),
    rendererReload: Boolean(process.env.BACKOFFICE_WEB_RENDERER_DIR),
    apiUrl: process.env.API_URL || undefined,
    dataDir: resolve(dataDir, 'pglite'),
    templateDir: resolve(root, '.data/pglite-template'),
    // Named, not found beside the code: this file runs bundled from out/web.
    migrationsFolder: resolve(root, 'src-server/db/migrations'),
    settingsFile: resolve(dataDir, 'settings.json'),
    // The browser version shows the demo workspace unless BACKOFFICE_DEMO=0 (then the first visit creates the administrator).
    demo: process.env.BACKOFFICE_DEMO !== '0',
    // The first visit chooses the team's server or this computer, as the desktop app's first start does.
    chooseServer: process.env.BACKOFFICE_CHOOSE_SERVER === '1',
    logger,
    logDir,
    // Reset links have no other way out of the embedded API: printed whatever the log level, clickable on a TTY.
    onOutboxMail: printOutboxMail,
    // Printed first: the page opens while the embedded API finishes starting.
    onListening: (url) => console.log(`Back-office web: ${url}`),
  });
  console.log(host.apiUrl ? `API: ${host.apiUrl}${host.embedded ? ` (embedded, ${host.embedded.database.kind})` : ''}` : 'API: chosen in the page');
  printDemoAccounts(host.embedded?.demoAccounts ?? []);
  closeOnSignals(() => host.close());
}

runMain(main);
