import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POLICY_MESSAGES } from '@shared/messages/workplace';
import { createMainServices } from '../../src-main/main-services';
import { bakeBuildDefaults, buildDefaultsFromEnv, readBuildDefaults } from '../../src-main/services/build-defaults';
import { parseEnvironmentPolicy, parseJsonPolicy, parseRegistryPolicy, readPolicy } from '../../src-main/services/policy';
import { DEFAULT_SETTINGS, createJsonSettingsStore } from '../../src-main/services/settings';
import { serverChoiceOf } from '../../src-main/services/workplace';

/**
 * Updates without per-user files (issue 52, item 3): `npm run dist` bakes the company's feed, channel and team
 * server from the build machine's environment into a file main reads as the build's defaults; policy beats the
 * user's settings, which beat those defaults; the channel is a setting like the others, lockable by policy.
 */
const work = mkdtempSync(join(tmpdir(), 'bo-build-defaults-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const COMPANY_BUILD = {
  BACKOFFICE_BUILD_UPDATE_URL: 'https://maj.exemple.fr/back-office/',
  BACKOFFICE_BUILD_UPDATE_CHANNEL: 'beta',
  BACKOFFICE_BUILD_API_URL: 'https://backoffice.exemple.fr/',
};

describe('build defaults baked by npm run dist', () => {
  it('are written from the environment into the file main reads, and said in the build output', () => {
    const file = join(work, 'out', 'main', 'build-defaults.json');
    const lines = bakeBuildDefaults({ ...COMPANY_BUILD, PATH: '/bin' }, file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      updateUrl: 'https://maj.exemple.fr/back-office',
      updateChannel: 'beta',
      apiUrl: 'https://backoffice.exemple.fr',
    });
    expect(readBuildDefaults(file)).toEqual({
      updateUrl: 'https://maj.exemple.fr/back-office',
      updateChannel: 'beta',
      apiUrl: 'https://backoffice.exemple.fr',
    });
    expect(lines).toEqual([
      'Updates: from https://maj.exemple.fr/back-office, channel beta (BACKOFFICE_BUILD_UPDATE_URL)',
      'Team server: https://backoffice.exemple.fr (BACKOFFICE_BUILD_API_URL)',
    ]);
    // A build without the variables bakes nothing and says so.
    const plain = join(work, 'plain.json');
    expect(bakeBuildDefaults({}, plain)[0]).toContain('no feed baked');
    expect(readBuildDefaults(plain)).toEqual({});
  });

  it('refuses a variable that would bake a feed the app cannot use, and reads a bad or absent file as none', () => {
    expect(buildDefaultsFromEnv({ BACKOFFICE_BUILD_UPDATE_URL: 'http://maj.exemple.fr', BACKOFFICE_BUILD_UPDATE_CHANNEL: 'nightly' }).errors).toEqual(
      [
        'BACKOFFICE_BUILD_UPDATE_URL=http://maj.exemple.fr: not an https:// folder nor s3://bucket/folder',
        'BACKOFFICE_BUILD_UPDATE_CHANNEL=nightly: not one of stable, beta',
      ],
    );
    expect(() => bakeBuildDefaults({ BACKOFFICE_BUILD_API_URL: 'http://192.168.1.4:4000' }, join(work, 'refused.json'))).toThrow(
      'BACKOFFICE_BUILD_API_URL=http://192.168.1.4:4000: not an https:// address',
    );
    const hand = join(work, 'hand.json');
    writeFileSync(hand, JSON.stringify({ updateUrl: 'javascript:alert(1)', updateChannel: 'beta', other: 'x' }));
    expect(readBuildDefaults(hand)).toEqual({ updateChannel: 'beta' });
    writeFileSync(hand, '{ trailing, }');
    expect(readBuildDefaults(hand)).toEqual({});
    expect(readBuildDefaults(join(work, 'absent.json'))).toEqual({});
  });
});

describe('precedence: policy, then the user, then the build, then the defaults', () => {
  const baked = { updateUrl: 'https://maj.exemple.fr/back-office', updateChannel: 'beta' as const, apiUrl: 'https://backoffice.exemple.fr' };

  it("a company build updates by itself and works on the team server, with no user file; the user's choice beats it", () => {
    const file = join(work, 'fresh.json');
    const store = createJsonSettingsStore(file, undefined, baked);
    expect(store.get()).toEqual({ ...DEFAULT_SETTINGS, ...baked });
    expect(serverChoiceOf(store.get())).toBe('team');
    // The user works on this computer and follows stable: their file keeps only that.
    store.set({ apiUrl: '', workplace: 'local' });
    store.set({ updateChannel: 'stable' });
    expect(JSON.parse(readFileSync(file, 'utf8')).settings).toEqual({ apiUrl: '', workplace: 'local', updateChannel: 'stable' });
    // The next build's feed shows through: nothing of the old build was frozen into the user's file.
    const next = createJsonSettingsStore(file, undefined, { ...baked, updateUrl: 'https://maj2.exemple.fr' });
    expect(next.get()).toMatchObject({ updateUrl: 'https://maj2.exemple.fr', updateChannel: 'stable', apiUrl: '', workplace: 'local' });
    expect(serverChoiceOf(next.get())).toBe('local');
  });

  it("an older start's file, which wrote every empty default, does not hide the build's feed", () => {
    const file = join(work, 'older.json');
    writeFileSync(file, JSON.stringify({ settings: { ...DEFAULT_SETTINGS, updateChannel: undefined, environmentLabel: 'recette' } }));
    expect(createJsonSettingsStore(file, undefined, baked).get()).toMatchObject({
      updateUrl: 'https://maj.exemple.fr/back-office',
      updateChannel: 'beta',
      apiUrl: 'https://backoffice.exemple.fr',
      environmentLabel: 'recette',
    });
  });

  it('policy beats the user and the build, and locks the channel; an unlocked channel is the user’s to set', async () => {
    const file = join(work, 'policy.json');
    writeFileSync(file, JSON.stringify({ settings: { updateChannel: 'beta', updateUrl: 'https://perso.exemple.fr' } }));
    const policy = await readPolicy([{ name: 'registre Windows', read: async () => ({ updateChannel: 'stable' }) }]);
    const store = createJsonSettingsStore(file, policy, { ...baked, updateUrl: 'https://maj.exemple.fr' });
    expect(store.get()).toMatchObject({ updateChannel: 'stable', updateUrl: 'https://perso.exemple.fr' });
    expect(() => store.set({ updateChannel: 'beta' })).toThrow(POLICY_MESSAGES.locked('registre Windows'));
    const free = createJsonSettingsStore(join(work, 'free.json'), undefined, { updateUrl: 'https://maj.exemple.fr' });
    expect(free.get().updateChannel).toBe('stable');
    expect(free.set({ updateChannel: 'beta' }).updateChannel).toBe('beta');
    expect(() => free.set({ updateChannel: 'nightly' as never })).toThrow();
  });

  it('every policy source reads the channel, and a channel that is none of stable and beta is ignored', () => {
    expect(parseRegistryPolicy('\r\n    updateChannel    REG_SZ    beta\r\n')).toEqual({ updateChannel: 'beta' });
    expect(parseJsonPolicy('{"updateChannel": "nightly", "updateUrl": "https://maj.exemple.fr"}')).toEqual({ updateUrl: 'https://maj.exemple.fr' });
    expect(parseEnvironmentPolicy({ BACKOFFICE_POLICY_UPDATE_CHANNEL: 'stable' })).toEqual({ updateChannel: 'stable' });
  });
});

describe('what the About page is told', () => {
  const noFiles = { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null };

  it('the feed and channel in use, who checks, and the last check', async () => {
    const settings = createJsonSettingsStore(join(work, 'about.json'), undefined, {
      updateUrl: 'https://maj.exemple.fr',
      updateChannel: 'beta',
      apiUrl: 'https://backoffice.exemple.fr',
    });
    let lastCheck: { at: string; outcome: 'up-to-date' } | null = null;
    const desktop = createMainServices({
      host: 'electron',
      version: () => '1.0.0',
      settings,
      files: noFiles,
      embedded: () => Promise.reject(new Error('not started')),
      updates: () => ({ checker: 'app', lastCheck }),
    });
    expect((await desktop.appInfo()).updates).toEqual({ feed: 'https://maj.exemple.fr', channel: 'beta', checker: 'app' });
    lastCheck = { at: '2026-12-07T09:30:00.000Z', outcome: 'up-to-date' };
    expect((await desktop.appInfo()).updates).toEqual({ feed: 'https://maj.exemple.fr', channel: 'beta', checker: 'app', lastCheck });
    const web = createMainServices({
      host: 'web',
      version: () => '1.0.0',
      settings,
      files: noFiles,
      embedded: () => Promise.reject(new Error('no')),
    });
    expect((await web.appInfo()).updates?.checker).toBe('browser');
  });
});
