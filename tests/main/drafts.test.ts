import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Conf from 'conf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAFT_MAX_CHARS } from '@shared/drafts';
import { MESSAGES } from '@shared/messages';
import { createMainServices } from '../../src-main/main-services';
import { DraftStore, type DraftOwner } from '../../src-main/services/drafts';
import { createSessionVault, type KeyValueStore } from '../../src-main/services/session-vault';
import { DEFAULT_SETTINGS, type SettingsStore } from '../../src-main/services/settings';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * The desktop app's local drafts in main (docs/architecture.md, "Versions and conflicts"): a real store file
 * (conf, the package electron-store extends with Electron's user data folder only) in a temporary folder, behind
 * the real IPC dispatch and a real API session.
 */
let server: TestServer;
let folder: string;
beforeAll(async () => {
  server = await startTestServer();
  folder = mkdtempSync(join(tmpdir(), 'bo-drafts-'));
});
afterAll(async () => {
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** The store as the Electron host opens it (hosts/electron.ts), in `cwd`. */
const draftsFile = (cwd: string) =>
  new Conf({ configName: 'drafts', cwd, configFileMode: 0o600, accessPropertiesByDotNotation: false }) as unknown as KeyValueStore & { path: string };

const settings: SettingsStore = {
  get: () => ({ ...DEFAULT_SETTINGS }),
  set: () => ({ ...DEFAULT_SETTINGS }),
  getWindowBounds: () => null,
  setWindowBounds: () => undefined,
};
const noFiles = { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null };

function services(drafts: DraftStore | undefined) {
  return createMainServices({
    host: drafts ? 'electron' : 'web',
    version: () => '1',
    settings,
    files: noFiles,
    embedded: async () => ({ url: server.url, databaseKind: 'pglite' }),
    drafts,
  });
}

async function signedIn(store: DraftStore | undefined, roles: Parameters<TestServer['createAccount']>[0] = ['ADMIN']) {
  const vault = await createSessionVault({ service: 't', account: 'drafts' });
  const session = services(store).openSession({ vault, onSessionExpired: () => undefined });
  const account = await server.createAccount(roles);
  const signIn = () => session.dispatch('session:signIn', { username: account.email, password: TEST_PASSWORD });
  expect(await signIn()).toMatchObject({ ok: true });
  return { session, vault, account, signIn };
}

const draft = (values: unknown, version: number | null = 3) => ({ values, base: { name: 'Avant' }, version, savedAt: new Date().toISOString() });

describe('drafts in main (desktop host)', () => {
  it('keeps a draft for the signed-in user in its own file, across a restart and a sign-out', async () => {
    const cwd = join(folder, 'restart');
    const { session, account, signIn } = await signedIn(new DraftStore(draftsFile(cwd)));
    const written = draft({ name: 'Nouvelle publicité' });
    expect(await session.dispatch('drafts:put', { recordKey: 'advert:12', draft: written })).toEqual({ ok: true, data: { kept: true } });
    // The user is main's own: the answer names the account signed in, whatever the page believes.
    expect(await session.dispatch('drafts:list', undefined)).toEqual({ ok: true, data: { userId: account.id, drafts: { 'advert:12': written } } });

    const file = draftsFile(cwd).path;
    expect(file).toBe(join(cwd, 'drafts.json'));
    expect(readFileSync(file, 'utf8')).toContain('Nouvelle publicité');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    // A restart: a new store over the same folder, the same user signed in again.
    const restarted = services(new DraftStore(draftsFile(cwd))).openSession({
      vault: await createSessionVault({ service: 't', account: 'again' }),
      onSessionExpired: () => undefined,
    });
    expect(await restarted.dispatch('session:signIn', { username: account.email, password: TEST_PASSWORD })).toMatchObject({ ok: true });
    expect(await restarted.dispatch('drafts:list', undefined)).toMatchObject({ ok: true, data: { drafts: { 'advert:12': written } } });

    // Signed out (by hand or by expiry, both clear the session): nothing is read or written, the drafts stay.
    await session.dispatch('session:signOut', undefined);
    expect(await session.dispatch('drafts:list', undefined)).toEqual({ ok: false, status: 401, errorMsg: MESSAGES.sessionExpired });
    expect(await session.dispatch('drafts:put', { recordKey: 'advert:13', draft: written })).toMatchObject({ ok: false, status: 401 });
    expect(await signIn()).toMatchObject({ ok: true });
    expect(await session.dispatch('drafts:list', undefined)).toMatchObject({ ok: true, data: { drafts: { 'advert:12': written } } });
    await session.close();
    await restarted.close();
  });

  it('gives each user their own drafts and removes only the caller’s', async () => {
    const store = new DraftStore(draftsFile(join(folder, 'users')));
    const first = await signedIn(store);
    const second = await signedIn(store, ['SALES']);
    await first.session.dispatch('drafts:put', { recordKey: 'group:4', draft: draft({ name: 'Le mien' }) });
    await second.session.dispatch('drafts:put', { recordKey: 'group:4', draft: draft({ name: 'Le sien' }) });
    expect(await second.session.dispatch('drafts:list', undefined)).toMatchObject({
      data: { userId: second.account.id, drafts: { 'group:4': { values: { name: 'Le sien' } } } },
    });

    expect(await second.session.dispatch('drafts:remove', { recordKey: 'group:4' })).toEqual({ ok: true, data: { removed: true } });
    expect(await second.session.dispatch('drafts:remove', { recordKey: 'group:4' })).toEqual({ ok: true, data: { removed: false } });
    expect(await second.session.dispatch('drafts:list', undefined)).toMatchObject({ data: { drafts: {} } });
    expect(await first.session.dispatch('drafts:list', undefined)).toMatchObject({
      data: { drafts: { 'group:4': { values: { name: 'Le mien' } } } },
    });
    await first.session.close();
    await second.session.close();
  });

  it('refuses a payload that names a user, a bad key, an odd draft or an oversized one, and keeps nothing of it', async () => {
    const store = new DraftStore(draftsFile(join(folder, 'refusals')));
    const { session, account } = await signedIn(store);
    const refusals = [
      // The user comes from main's session only.
      await session.dispatch('drafts:list', { userId: account.id + 1 }),
      await session.dispatch('drafts:put', { recordKey: 'advert:1', draft: draft({ a: 1 }), userId: 1 }),
      await session.dispatch('drafts:put', { recordKey: '__proto__', draft: draft({ a: 1 }) }),
      await session.dispatch('drafts:put', { recordKey: 'advert:1.2/../x', draft: draft({ a: 1 }) }),
      await session.dispatch('drafts:put', { recordKey: 'advert:1', draft: { ...draft({ a: 1 }), token: 'x' } }),
      await session.dispatch('drafts:put', { recordKey: 'advert:1', draft: { ...draft({ a: 1 }), savedAt: 'hier' } }),
      await session.dispatch('drafts:put', { recordKey: 'advert:1', draft: draft(null) }),
      await session.dispatch('drafts:remove', {}),
    ];
    for (const refused of refusals)
      expect(refused).toMatchObject({ ok: false, status: 0, errorMsg: expect.stringContaining(MESSAGES.invalidIpcCall) });
    expect(refusals[2]).toMatchObject({ errorMsg: `${MESSAGES.invalidIpcCall} : ${MESSAGES.draftRecordKey}`, field: 'recordKey' });

    const oversized = await session.dispatch('drafts:put', { recordKey: 'advert:1', draft: draft({ body: 'x'.repeat(DRAFT_MAX_CHARS) }) });
    expect(oversized).toEqual({ ok: false, status: 0, errorMsg: `${MESSAGES.invalidIpcCall} : ${MESSAGES.draftTooLarge}`, field: 'draft' });
    expect(await session.dispatch('drafts:list', undefined)).toMatchObject({ ok: true, data: { drafts: {} } });
    await session.close();
  });

  it('never keeps the session’s tokens', async () => {
    const { session, vault } = await signedIn(new DraftStore(draftsFile(join(folder, 'secrets'))));
    const stored = await vault.load();
    for (const token of [stored!.accessToken.value, stored!.refreshToken.value]) {
      expect(await session.dispatch('drafts:put', { recordKey: 'push:new', draft: draft({ message: `copié ${token}` }) })).toEqual({
        ok: false,
        status: 400,
        errorMsg: MESSAGES.draftHoldsSecret,
        field: 'draft',
      });
    }
    expect(await session.dispatch('drafts:list', undefined)).toMatchObject({ ok: true, data: { drafts: {} } });
    await session.close();
  });

  it('web host: no store in main, the page keeps its drafts', async () => {
    const { session } = await signedIn(undefined);
    expect(await session.dispatch('drafts:list', undefined)).toEqual({ ok: false, status: 404, errorMsg: MESSAGES.draftsNotKept });
    expect(await session.dispatch('drafts:put', { recordKey: 'advert:1', draft: draft({ a: 1 }) })).toMatchObject({ ok: false, status: 404 });
    await session.close();
  });
});

describe('DraftStore limits', () => {
  const owner: DraftOwner = { userId: 7, api: 'http://127.0.0.1:1', secrets: ['jeton'] };
  const sized = (chars: number) => draft({ text: 'x'.repeat(chars) });

  it('refuses past the total with a clear message, counting a replaced draft once', () => {
    const store = new DraftStore(draftsFile(join(folder, 'total')), { totalChars: 2_000 });
    expect(store.put(owner, 'advert:1', sized(800))).toMatchObject({ ok: true });
    // Written again and again, one record's draft does not fill the store.
    for (let i = 0; i < 5; i += 1) expect(store.put(owner, 'advert:1', sized(800 + i))).toMatchObject({ ok: true });
    expect(store.put(owner, 'advert:2', sized(800))).toMatchObject({ ok: true });
    expect(store.put(owner, 'advert:3', sized(800))).toEqual({ ok: false, status: 413, errorMsg: MESSAGES.draftsFull, field: 'draft' });
    expect(Object.keys(store.list(owner))).toEqual(['advert:1', 'advert:2']);
    // Once one is saved (removed), there is room again.
    store.remove(owner, 'advert:2');
    expect(store.put(owner, 'advert:3', sized(800))).toMatchObject({ ok: true });
  });

  it('refuses one draft past its own cap, and reads a store edited by hand into another shape as empty', () => {
    const backend = draftsFile(join(folder, 'cap'));
    const store = new DraftStore(backend, { draftChars: 500 });
    expect(store.put(owner, 'advert:1', sized(600))).toEqual({ ok: false, status: 413, errorMsg: MESSAGES.draftTooLarge, field: 'draft' });
    expect(store.list(owner)).toEqual({});
    backend.set('owners', ['nonsense']);
    expect(store.list(owner)).toEqual({});
    expect(store.put(owner, 'advert:1', sized(10))).toMatchObject({ ok: true });
  });
});
