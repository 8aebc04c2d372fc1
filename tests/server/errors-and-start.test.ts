import { Writable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, inject, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { buildApp } from '../../src-server/app';
import { startServer } from '../../src-server/server';
import { JOB_EVENTS_CHANNEL } from '../../src-server/jobs/events';
import type { JobEvent } from '@shared/jobs';
import { DEMO_ACCOUNTS, ensureFirstAdmin, seedDemo, accountCount } from '../../src-server/seed';
import pg from 'pg';
import { freshDatabase, throwAwayPostgresDatabase } from '../helpers/database';

function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('unexpected errors', () => {
  it('answer 500 with the generic message; the detail goes to the log only', async () => {
    const database = await freshDatabase();
    const { logger, lines } = capturingLogger();
    const app = await buildApp({ db: database.db, dbKind: database.kind, logger });
    app.get('/explode', async () => {
      throw new Error('secret internal detail: relation "x" does not exist');
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/explode' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ errorMsg: MESSAGES.genericError });
      expect(response.body).not.toContain('secret internal detail');
      expect(lines.join('\n')).toContain('secret internal detail');
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('answer 503 with Retry-After when the database ended the connection a request was handed (never a 500)', async () => {
    const database = await freshDatabase();
    const app = await buildApp({ db: database.db, dbKind: database.kind, logger: pino({ level: 'silent' }) });
    const adminShutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    const wrapped = Object.assign(new Error('Failed query: select 1'), { query: 'select 1', params: [], cause: adminShutdown });
    app.get('/killed', async () => {
      throw wrapped;
    });
    app.get('/terminated', async () => {
      throw new Error('Connection terminated unexpectedly');
    });
    try {
      for (const url of ['/killed', '/terminated']) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(503);
        expect(response.headers['retry-after']).toBe('1');
        expect(response.json()).toEqual({ errorMsg: MESSAGES.databaseUnavailable });
      }
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('write structured JSON logs with the request id', async () => {
    const database = await freshDatabase();
    const { logger, lines } = capturingLogger();
    const app = await buildApp({ db: database.db, dbKind: database.kind, logger });
    try {
      await app.inject({ method: 'GET', url: '/meta' });
      const entries = lines.map((line) => JSON.parse(line));
      expect(entries.some((entry) => entry.reqId && entry.req?.url === '/meta')).toBe(true);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('lost database connections (PostgreSQL)', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) console.log('lost-connection test skipped: it needs PostgreSQL (TEST_DATABASE_URL); CI runs it');

  it.skipIf(!serverUrl)(
    'survive an administrator killing every connection: the next requests succeed and LISTEN comes back',
    async () => {
      const database = await throwAwayPostgresDatabase(serverUrl!);
      const { logger } = capturingLogger();
      const credentials = { username: 'admin@test.local', password: 'a-long-enough-passphrase' };
      const server = await startServer({
        port: 0,
        databaseUrl: database.url,
        logger,
        adminEmail: credentials.username,
        adminPassword: credentials.password,
      });
      const signIn = () =>
        fetch(`${server.url}/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) });
      const received: JobEvent[] = [];
      const unsubscribe = server.app.context.jobEvents.subscribe({ accountId: 1, roles: ['ADMIN'] }, (event) => received.push(event));
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      try {
        expect((await signIn()).status).toBe(200);
        // The server's connections only: an autovacuum worker busy on the fresh database is not the server's.
        const { rowCount } = await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
          [new URL(database.url).pathname.slice(1)],
        );
        expect(rowCount).toBeGreaterThan(0);
        // What a user sees: a request handed a connection the database had just ended is told to try again (503 with
        // Retry-After, which the desktop client retries on), never a 500; and the requests after it answer.
        const answers: number[] = [];
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const response = await signIn();
          answers.push(response.status);
          if (response.status === 503) {
            expect(response.headers.get('retry-after')).toBe('1');
            expect(((await response.json()) as { errorMsg: string }).errorMsg).toBe(MESSAGES.databaseUnavailable);
          }
        }
        expect(
          answers.filter((status) => status !== 200 && status !== 503),
          answers.join(', '),
        ).toEqual([]);
        await expect.poll(async () => (await signIn()).status).toBe(200);
        // ...and events of jobs running on another instance reach this one again: its LISTEN connection came back.
        // Each poll sends one more NOTIFY on the server's database, as another instance would, until one arrives.
        const otherInstance = new pg.Client({ connectionString: database.url });
        await otherInstance.connect();
        const event: JobEvent = { kind: 'csv-import', id: 'other-instance-job', state: 'running', progress: {}, at: Date.now() };
        await expect
          .poll(
            async () => {
              await otherInstance.query(`SELECT pg_notify($1, $2)`, [
                JOB_EVENTS_CHANNEL,
                JSON.stringify({ origin: 'another-instance', event, audience: { roles: ['ADMIN'] } }),
              ]);
              return received.some((seen) => seen.id === event.id);
            },
            { timeout: 30_000, interval: 250 },
          )
          .toBe(true);
        await otherInstance.end();
      } finally {
        unsubscribe();
        await admin.end();
        await server.close();
        await database.drop();
      }
    },
    60_000,
  );
});

describe('first start', () => {
  it('creates the administrator from the environment only when no account exists', async () => {
    const database = await freshDatabase();
    try {
      expect(await ensureFirstAdmin(database.db, undefined, undefined)).toBe(false);
      await expect(ensureFirstAdmin(database.db, 'boss@exemple.fr', 'short')).rejects.toThrow(
        `BACKOFFICE_ADMIN_PASSWORD : ${MESSAGES.passwordTooShort}`,
      );
      await expect(ensureFirstAdmin(database.db, 'boss@exemple.fr', 'password123')).rejects.toThrow(MESSAGES.passwordTooCommon);
      expect(await accountCount(database.db)).toBe(0);
      expect(await ensureFirstAdmin(database.db, 'boss@exemple.fr', 'first admin password')).toBe(true);
      expect(await ensureFirstAdmin(database.db, 'other@exemple.fr', 'first admin password')).toBe(false);
      expect(await accountCount(database.db)).toBe(1);
      expect(await seedDemo(database.db)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it('seeds one demo account per role, whose printed passwords sign in, on a persistent PGlite folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bo-pglite-'));
    try {
      // From the migrated template, as `npm run web` and the desktop app start.
      const templateDir = inject('pgliteTemplateDir');
      const server = await startServer({ port: 0, dataDir, templateDir, demo: true, logger: pino({ level: 'silent' }) });
      try {
        expect(server.demoAccounts.map((a) => a.role)).toEqual(['ADMIN', 'CSM', 'CSM_LEAD', 'SALES', 'CONTENT_CREATOR', 'CONTENT_CREATOR_LEAD']);
        for (const demo of DEMO_ACCOUNTS) {
          const response = await fetch(`${server.url}/authenticate`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: demo.email, password: demo.password }),
          });
          expect(response.status, demo.email).toBe(200);
          expect((await response.json()).roles).toEqual([demo.role]);
        }
      } finally {
        await server.close();
      }
      // Restart on the same folder: data kept, nothing seeded twice.
      const again = await startServer({ port: 0, dataDir, templateDir, demo: true, logger: pino({ level: 'silent' }) });
      try {
        expect(again.demoAccounts).toEqual([]);
        expect(await accountCount(again.database.db)).toBe(DEMO_ACCOUNTS.length);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
