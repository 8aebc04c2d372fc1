import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import type { WebApp } from './fixtures';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Stops the embedded API as a crash would leave it (no answer on its port); answers the function that starts it
 * again on that port, on the same data.
 */
export async function killApi(app: WebApp) {
  const running = app.host.embedded!;
  const port = Number(new URL(running.url).port);
  await running.close();
  return async () => {
    const { startServer } = await import('../../src-server/server');
    const restarted = await startServer({
      port,
      dataDir: join(app.dataDir, 'pglite'),
      templateDir: join(root, '.data/pglite-template'),
      demo: true,
      demoPopulation: false,
      logger: pino({ level: 'silent' }),
    });
    // The host closes its embedded server at the end: the one running now.
    running.close = () => restarted.close();
  };
}
