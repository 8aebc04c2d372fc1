import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startServer } from './server';
import { closeOnSignals, printDemoAccounts, printOutboxMail, runMain } from './console';
import { readSecretFiles } from './env-files';
import { parseTrustProxy } from './trust-proxy';

/** `npm run server [-- --demo]`: the platform API, on PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
async function main() {
  const { values } = parseArgs({ options: { demo: { type: 'boolean', default: false } } });
  const env = process.env;
  // DATABASE_URL_FILE, METRICS_TOKEN_FILE…: secrets from files (compose.yaml's Docker secrets) before anything reads them.
  readSecretFiles(env);
  const server = await startServer({
    host: env.HOST ?? '127.0.0.1',
    port: env.PORT ? Number(env.PORT) : 4000,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : resolve(env.BACKOFFICE_DATA_DIR ?? '.data/pglite'),
    templateDir: resolve(env.BACKOFFICE_PGLITE_TEMPLATE ?? '.data/pglite-template'),
    demo: values.demo,
    demoPopulation: values.demo,
    adminEmail: env.BACKOFFICE_ADMIN_EMAIL,
    adminPassword: env.BACKOFFICE_ADMIN_PASSWORD,
    jwtSecret: env.JWT_SECRET,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    trustProxy: parseTrustProxy(env.TRUST_PROXY, (message) => console.warn(message)),
    config: {
      ...(env.RESET_LINK_BASE ? { resetLinkBase: env.RESET_LINK_BASE } : {}),
      // The API reference for the teams that call it: /openapi.json and /docs (README, "Platform API").
      apiDocs: env.BACKOFFICE_API_DOCS !== 'false',
      // Operators' probes (docs/operations.md): /metrics for this bearer token only; the engine built after listening.
      ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
      audienceEngineInBackground: true,
      // The app platform's population feed (POST /population/*) and the company domains of User criteria (spec §5).
      ...(env.BACKOFFICE_INGEST_TOKEN ? { ingestToken: env.BACKOFFICE_INGEST_TOKEN } : {}),
      companyEmailDomains: (env.BACKOFFICE_COMPANY_EMAIL_DOMAINS ?? '')
        .split(',')
        .map((domain) => domain.trim())
        .filter(Boolean),
    },
    // Without SMTP the printed mail is how a password link reaches anyone, whatever LOG_LEVEL says.
    onOutboxMail: printOutboxMail,
  });
  console.log(`API listening on ${server.url} (${server.database.kind})`);
  printDemoAccounts(server.demoAccounts);
  closeOnSignals(() => server.close());
}

runMain(main);
