import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { ApiClient } from '../../src-main/services/api-client';
import { createSessionVault } from '../../src-main/services/session-vault';
import { startWebHost, type WebHost } from '../../src-main/hosts/web';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * The device token (README "Sign-in rate limits"): each host keeps the one its sign-in got, past sign-out, and sends
 * it with the next sign-in, so the owner of a known device gets in while guessers hold the account.
 */
let api: TestServer;
const work = mkdtempSync(join(tmpdir(), 'bo-device-'));

beforeAll(async () => {
  api = await startTestServer({ config: { usernameSlowDownBaseMs: 1, usernameSlowDownMaxMs: 1 } });
});
afterAll(async () => {
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Guessers from thirty addresses: the account is past its threshold and its bucket is spent. */
async function holdAccount(email: string, round: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    await api.app.inject({
      method: 'POST',
      url: '/authenticate',
      remoteAddress: `203.0.${round}.${i}`,
      payload: { username: email, password: `guess-${i}` },
    });
  }
}

describe('the device token, kept by each host', () => {
  it('main keeps it in the vault past sign-out and sends it: the known device gets in, a new one waits', async () => {
    const { email } = await api.createAccount(['CSM']);
    const vault = await createSessionVault({ service: 'test', account: api.url });
    const known = new ApiClient({ baseUrl: () => api.url, vault });
    expect((await known.signIn(email, TEST_PASSWORD)).ok).toBe(true);
    await known.signOut();
    await holdAccount(email, '113');
    const other = new ApiClient({ baseUrl: () => api.url, vault: await createSessionVault({ service: 'test', account: api.url }) });
    expect(await other.signIn(email, TEST_PASSWORD)).toMatchObject({ ok: false, status: 429, errorMsg: MESSAGES.tooManyAttempts });
    expect(await known.signIn(email.toUpperCase(), TEST_PASSWORD)).toMatchObject({ ok: true });
    await Promise.all([known.close(), other.close()]);
  });

  it('the web host keeps it in an HttpOnly cookie of the browser, past sign-out', async () => {
    const rendererDir = join(work, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    const host: WebHost = await startWebHost({
      port: 0,
      rendererDir,
      apiUrl: api.url,
      settingsFile: join(work, 'settings.json'),
      logger: pino({ level: 'silent' }),
    });
    try {
      /** A browser's cookie jar. */
      const browser = () => {
        const jar = new Map<string, string>();
        const setCookies: string[] = [];
        const ipc = async (channel: string, payload: unknown) => {
          const response = await fetch(`${host.url}/__ipc/${channel}`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-backoffice-secret': host.secret,
              origin: host.url,
              cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
            },
            body: JSON.stringify({ payload }),
          });
          for (const set of response.headers.getSetCookie()) {
            setCookies.push(set);
            const [name, value] = set.split(';')[0]!.split('=');
            if (value) jar.set(name!, value);
            else jar.delete(name!);
          }
          return (await response.json()) as { ok: boolean; status?: number; errorMsg?: string };
        };
        return { ipc, setCookies };
      };
      const { email } = await api.createAccount(['CSM']);
      const known = browser();
      expect(await known.ipc('session:signIn', { username: email, password: TEST_PASSWORD })).toMatchObject({ ok: true });
      const device = known.setCookies.find((set) => set.includes('-device='));
      expect(device).toMatch(/HttpOnly; SameSite=Strict; Secure; Path=\/; Max-Age=7776000$/);
      await known.ipc('session:signOut', undefined);
      await holdAccount(email, '114');
      expect(await browser().ipc('session:signIn', { username: email, password: TEST_PASSWORD })).toMatchObject({ ok: false, status: 429 });
      expect(await known.ipc('session:signIn', { username: email, password: TEST_PASSWORD })).toMatchObject({ ok: true });
    } finally {
      await host.close();
    }
  });
});
