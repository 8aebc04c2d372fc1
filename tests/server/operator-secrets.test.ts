import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-server/app';
import { MIN_METRICS_TOKEN_LENGTH } from '../../src-server/ops/routes';
import { freshDatabase } from '../helpers/database';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * What the public learns of the set-up (docs/security.md, "Streams and slow requests"): a METRICS_TOKEN of at least
 * 32 characters or no start, /ready's details only to that token, a device token that names no one.
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const METRICS_TOKEN = 'operator-secrets-metrics-token-32-chars';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { metricsToken: METRICS_TOKEN } });
});
afterAll(() => server?.close());

describe('METRICS_TOKEN', () => {
  it('shorter than 32 characters: the server does not start, and says why', async () => {
    expect(MIN_METRICS_TOKEN_LENGTH).toBe(32);
    const database = await freshDatabase();
    try {
      const build = (metricsToken: string) =>
        buildApp({ db: database.db, dbKind: database.kind, logger: pino({ level: 'silent' }), config: { metricsToken } });
      await expect(build('x')).rejects.toThrow(
        'METRICS_TOKEN must be at least 32 characters long (it has 1); generate one with: openssl rand -hex 32',
      );
      await expect(build('a'.repeat(31))).rejects.toThrow(/at least 32 characters long \(it has 31\)/);
      const app = await build('a'.repeat(32));
      await app.close();
    } finally {
      await database.close();
    }
  });
});

describe('/ready', () => {
  it('tells the public ready or not only; the checks and warnings go to the metrics token', async () => {
    const open = await server.request('GET', '/ready');
    expect(open).toMatchObject({ status: 200, body: { ready: true } });
    expect(Object.keys(open.body)).toEqual(['ready']);
    const wrong = await server.request('GET', '/ready', { headers: { authorization: 'Bearer not-the-metrics-token-but-as-long-as-it' } });
    expect(Object.keys(wrong.body)).toEqual(['ready']);
    const operator = await server.request('GET', '/ready', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(operator.body).toMatchObject({ ready: true, checks: expect.arrayContaining([{ name: 'database', ok: true }]), warnings: [] });

    // Not ready (a migration missing): still 503 with Retry-After, and still no reason for the public.
    const { db } = server.database;
    const run = (text: string) => db.execute(sql.raw(text)) as unknown as Promise<{ rows: { id: number; hash: string; created_at: string }[] }>;
    const [last] = (await run('SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1')).rows;
    await run(`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${Number(last!.id)}`);
    try {
      const behind = await server.request('GET', '/ready');
      expect(behind).toMatchObject({ status: 503, body: { ready: false } });
      expect(Object.keys(behind.body)).toEqual(['ready']);
      expect(behind.headers.get('retry-after')).toBe('5');
      const told = await server.request('GET', '/ready', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(told.body.checks).toContainEqual(expect.objectContaining({ name: 'migrations', ok: false }));
    } finally {
      await run(`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('${last!.hash}', ${Number(last!.created_at)})`);
    }
    expect((await server.request('GET', '/ready')).status).toBe(200);
  });
});

describe('the device token', () => {
  it('is opaque: neither the e-mail nor the account in any part of it; it counts for its own username only', async () => {
    const { email } = await server.createAccount(['CSM']);
    const signIn = await server.request('POST', '/authenticate', { body: { username: email, password: TEST_PASSWORD } });
    const token = signIn.body.deviceToken as string;
    expect(token).toMatch(/^d1\.[A-Za-z0-9_-]{22}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    const readable = [token, ...token.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))].join('\n').toLowerCase();
    expect(readable).not.toContain(email.toLowerCase());
    expect(readable).not.toContain(email.split('@')[0]!.toLowerCase());
    expect(readable).not.toContain('"sub"');
    const tokens = server.app.context.tokens;
    expect(tokens.verifyDevice(token, email.toUpperCase())).toMatchObject({ id: token.split('.')[1] });
    expect(tokens.verifyDevice(token, 'someone.else@test.local')).toBeNull();
    // One character changed in its MAC, or its expiry moved: not ours.
    expect(tokens.verifyDevice(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, email)).toBeNull();
    const [, deviceId, , mac] = token.split('.');
    expect(tokens.verifyDevice(`d1.${deviceId}.zzzzzz.${mac}`, email)).toBeNull();
  });
});
