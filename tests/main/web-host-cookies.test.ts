import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../src-main/hosts/web';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * The web host's cookies (docs/security.md, "The browser version's threat model"): `__Host-` prefixed (Secure,
 * Path=/, no Domain), and the 90-day device cookie holds an opaque token, never the e-mail.
 */
let api: TestServer;
let host: WebHost;
const work = mkdtempSync(join(tmpdir(), 'bo-cookies-'));

beforeAll(async () => {
  api = await startTestServer();
  const rendererDir = join(work, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startWebHost({ port: 0, rendererDir, apiUrl: api.url, settingsFile: join(work, 'settings.json'), logger: pino({ level: 'silent' }) });
});
afterAll(async () => {
  await host?.close();
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

const ipc = (channel: string, payload: unknown, cookie = '') =>
  fetch(`${host.url}/__ipc/${channel}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-backoffice-secret': host.secret, origin: host.url, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ payload }),
  });

describe('the web host cookies', () => {
  it('are __Host- cookies, Secure; the device cookie carries no e-mail', async () => {
    const { email } = await api.createAccount(['CSM']);
    const signIn = await ipc('session:signIn', { username: email, password: TEST_PASSWORD });
    expect(await signIn.json()).toMatchObject({ ok: true });
    const port = new URL(host.url).port;
    const [session, device] = signIn.headers.getSetCookie();
    expect(session).toMatch(new RegExp(`^__Host-backoffice_session_${port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Secure; Path=/$`));
    expect(device).toMatch(
      new RegExp(
        `^__Host-backoffice_session_${port}-device=d1\\.[A-Za-z0-9_-]{22}\\.[0-9a-z]+\\.[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Secure; Path=/; Max-Age=7776000$`,
      ),
    );
    const value = device!.split(';')[0]!.split('=')[1]!;
    const decoded = value
      .split('.')
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
      .join('\n');
    for (const text of [value, decoded]) {
      expect(text.toLowerCase()).not.toContain(email.toLowerCase());
      expect(text.toLowerCase()).not.toContain(email.split('@')[0]!.toLowerCase());
    }
    // The browser sends the cookies back under their __Host- names: it is signed in.
    const cookie = [session, device].map((set) => set!.split(';')[0]).join('; ');
    expect(await (await ipc('session:get', undefined, cookie)).json()).toMatchObject({ ok: true, data: { roles: ['CSM'] } });
    const signOut = await ipc('session:signOut', undefined, cookie);
    expect(signOut.headers.getSetCookie()[0]).toMatch(
      new RegExp(`^__Host-backoffice_session_${port}=; HttpOnly; SameSite=Strict; Secure; Path=/; Max-Age=0$`),
    );
  });
});
