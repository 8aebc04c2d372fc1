import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKPLACE_MESSAGES as M } from '@shared/messages';
import { checkServerAddress } from '@shared/server-address';
import { createMainServices } from '../../src-main/main-services';
import { probeTeamServer } from '../../src-main/services/server-probe';
import { createSessionVault } from '../../src-main/services/session-vault';
import { createJsonSettingsStore } from '../../src-main/services/settings';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * The check of a team server's address (issue 52, item 1) against real servers on loopback: this product's API,
 * a web server that is something else, ones that speak another API version, a self-signed https server, a closed
 * port and a name that does not exist.
 */
const work = mkdtempSync(join(tmpdir(), 'bo-probe-'));
const servers: Server[] = [];
let api: TestServer;
let other: TestServer;

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A server answering /health with `body` (JSON when an object). */
const answering = (body: unknown) =>
  listen(
    createServer((_request, response) => {
      const json = typeof body !== 'string';
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'text/html' });
      response.end(json ? JSON.stringify(body) : body);
    }),
  );

beforeAll(async () => {
  api = await startTestServer();
  other = await startTestServer();
});
afterAll(async () => {
  for (const server of servers) server.close();
  await api?.close();
  await other?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the address as typed', () => {
  it('takes https (a bare name means https) or http to this machine, and says what is wrong otherwise', () => {
    expect(checkServerAddress(' backoffice.exemple.fr/ ')).toEqual({ ok: true, url: 'https://backoffice.exemple.fr' });
    expect(checkServerAddress('http://127.0.0.1:4000')).toEqual({ ok: true, url: 'http://127.0.0.1:4000' });
    expect(checkServerAddress('')).toEqual({ ok: false, message: M.addressRequired });
    expect(checkServerAddress('http://192.168.1.20')).toEqual({ ok: false, message: M.addressNotHttps });
    expect(checkServerAddress('ftp://backoffice.exemple.fr')).toEqual({ ok: false, message: M.addressNotHttps });
    expect(checkServerAddress('https://moi:secret@backoffice.exemple.fr')).toEqual({ ok: false, message: M.addressCredentials });
    expect(checkServerAddress('https://back office')).toEqual({ ok: false, message: M.addressInvalid });
  });
});

describe('probeTeamServer', () => {
  it("accepts this product's API, in a version this app speaks", async () => {
    expect(await probeTeamServer(`${api.url}/`)).toEqual({ ok: true, url: api.url });
  });

  it('refuses a server that is something else, or speaks an older or newer API, each in French', async () => {
    expect(await probeTeamServer(`http://127.0.0.1:${await answering('<html>Bienvenue</html>')}`)).toEqual({ ok: false, message: M.notThisProduct });
    expect(await probeTeamServer(`http://127.0.0.1:${await answering({ ok: true, status: 'up' })}`)).toEqual({
      ok: false,
      message: M.notThisProduct,
    });
    const old = await answering({ ok: true, product: 'backoffice-api', apiVersion: 0 });
    expect(await probeTeamServer(`http://127.0.0.1:${old}`)).toEqual({ ok: false, message: M.versionTooOld(0) });
    const newer = await answering({ ok: true, product: 'backoffice-api', apiVersion: 7 });
    expect(await probeTeamServer(`http://127.0.0.1:${newer}`)).toEqual({ ok: false, message: M.versionTooNew(7) });
    const missing = await listen(createServer((_request, response) => response.writeHead(404).end()));
    expect(await probeTeamServer(`http://localhost:${missing}`)).toEqual({ ok: false, message: M.notThisProduct });
  });

  it('says no answer for a closed port or a server that never answers, and unknown host for a name that does not exist', async () => {
    const closed = await listen(createServer());
    servers.pop()!.close();
    expect(await probeTeamServer(`http://127.0.0.1:${closed}`)).toEqual({ ok: false, message: M.noAnswer });
    const silent = await listen(createServer(() => undefined));
    expect(await probeTeamServer(`http://127.0.0.1:${silent}`, 500)).toEqual({ ok: false, message: M.noAnswer });
    expect(await probeTeamServer('https://backoffice.nulle-part.invalid')).toEqual({
      ok: false,
      message: M.unknownHost('backoffice.nulle-part.invalid'),
    });
  });

  it('refuses a certificate the system does not trust', async () => {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-keyout',
        join(work, 'key.pem'),
        '-out',
        join(work, 'cert.pem'),
      ],
      {
        stdio: 'ignore',
      },
    );
    const port = await listen(
      createHttpsServer({ key: readFileSync(join(work, 'key.pem')), cert: readFileSync(join(work, 'cert.pem')) }, (_request, response) =>
        response.end(JSON.stringify({ ok: true, product: 'backoffice-api', apiVersion: 1 })),
      ) as unknown as Server,
    );
    expect(await probeTeamServer(`https://localhost:${port}`)).toEqual({ ok: false, message: M.certificateRefused });
  });
});

describe('workplace:choose (« Changer de serveur »)', () => {
  it('checks the server, signs out, and never presents one server’s session to another', async () => {
    const settings = createJsonSettingsStore(join(work, 'settings.json'));
    const services = createMainServices({
      host: 'web',
      version: () => '1.0.0',
      settings,
      files: { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null },
      embedded: async () => ({ url: other.url, databaseKind: 'pglite' }),
      workplace: {},
    });
    const session = services.openSession({ vault: await createSessionVault({ service: 't', account: 'choose' }), onSessionExpired: () => undefined });
    try {
      // A first start: nothing is called before the choice (the embedded server is not even started).
      expect(await services.appInfo()).toMatchObject({ serverChoice: 'pending' });
      expect(await session.dispatch('api:call', { operation: 'setup.status', input: {} })).toMatchObject({
        ok: false,
        errorMsg: expect.stringContaining(M.chooseFirst),
      });

      const refused = await session.dispatch('workplace:choose', { kind: 'team', address: `http://127.0.0.1:${await answering('<html></html>')}` });
      expect(refused).toMatchObject({ ok: false, errorMsg: M.notThisProduct, field: 'address' });
      expect(settings.get()).toMatchObject({ apiUrl: '', workplace: '' });

      expect(await session.dispatch('workplace:choose', { kind: 'team', address: api.url })).toMatchObject({
        ok: true,
        data: { serverChoice: 'team', apiUrl: api.url },
      });
      const account = await api.createAccount(['ADMIN']);
      expect(await session.dispatch('session:signIn', { username: account.email, password: TEST_PASSWORD })).toMatchObject({ ok: true });

      // To this computer: signed out, and the team server's tokens are not handed to the other API.
      expect(await session.dispatch('workplace:choose', { kind: 'local' })).toMatchObject({
        ok: true,
        data: { serverChoice: 'local', apiUrl: other.url },
      });
      expect(settings.get()).toMatchObject({ apiUrl: '', workplace: 'local' });
      expect(await session.dispatch('session:get', {})).toEqual({ ok: true, data: null });
      expect(await session.dispatch('api:call', { operation: 'admin.roles', input: {} })).toMatchObject({ ok: false, status: 401 });
      // And back: still signed out (the session was ended, not kept aside for the first server).
      await session.dispatch('workplace:choose', { kind: 'team', address: api.url });
      expect(await session.dispatch('session:get', {})).toEqual({ ok: true, data: null });
    } finally {
      await session.close();
    }
  });

  it('is refused where the host fixed the server at launch', async () => {
    const services = createMainServices({
      host: 'web',
      version: () => '1.0.0',
      settings: createJsonSettingsStore(join(work, 'fixed.json')),
      files: { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null },
      embedded: async () => ({ url: other.url, databaseKind: 'pglite' }),
    });
    const session = services.openSession({ vault: await createSessionVault({ service: 't', account: 'fixed' }), onSessionExpired: () => undefined });
    expect((await services.appInfo()).serverChoice).toBeUndefined();
    expect(await session.dispatch('workplace:choose', { kind: 'team', address: api.url })).toMatchObject({
      ok: false,
      errorMsg: M.switchUnavailable,
    });
    await session.close();
  });
});
