import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startWebHost } from './web';

/** `npm run web`: the back-office in a browser, with the API embedded unless API_URL names a team server. */
async function main() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const dataDir = resolve(process.env.BACKOFFICE_DATA_DIR ?? resolve(root, '.data/web'));
  const host = await startWebHost({
    rendererDir: resolve(root, 'out/renderer'),
    apiUrl: process.env.API_URL || undefined,
    dataDir: resolve(dataDir, 'pglite'),
    settingsFile: resolve(dataDir, 'settings.json'),
    demo: true,
    logger: pino({ level: process.env.LOG_LEVEL ?? 'warn' }),
  });
  console.log(`Back-office web: ${host.url}`);
  console.log(`API: ${host.apiUrl}${host.embedded ? ` (embedded, ${host.embedded.database.kind})` : ''}`);
  if (host.embedded?.demoAccounts.length) {
    console.log('Demo workspace seeded. Accounts (e-mail / password):');
    for (const demo of host.embedded.demoAccounts) console.log(`  ${demo.role.padEnd(21)} ${demo.email.padEnd(36)} ${demo.password}`);
  }
  const stop = async () => {
    await host.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
