import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POLICY_MESSAGES } from '@shared/messages/workplace';
import { createMainServices } from '../../src-main/main-services';
import {
  jsonFileSource,
  machinePolicySources,
  parseEnvironmentPolicy,
  parseJsonPolicy,
  parseRegistryPolicy,
  readPolicy,
  type PolicySource,
} from '../../src-main/services/policy';
import { DEFAULT_SETTINGS, createJsonSettingsStore } from '../../src-main/services/settings';

/** Machine-wide policy (issue 52, item 2): each source's parser on its real format, and the precedence. */
const work = mkdtempSync(join(tmpdir(), 'bo-policy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What `reg query HKLM\SOFTWARE\Policies\Back-office` prints on Windows. */
const REG_OUTPUT = [
  '',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Back-office',
  '    apiUrl    REG_SZ    https://backoffice.exemple.fr',
  '    updateUrl    REG_EXPAND_SZ    https://maj.exemple.fr/back-office',
  '    retries    REG_DWORD    0x3',
  '    unknownKey    REG_SZ    ignored',
  '',
].join('\r\n');

describe('policy sources', () => {
  it('reads the Windows registry output, a JSON file (Linux /etc, a macOS profile as JSON) and the environment', async () => {
    expect(parseRegistryPolicy(REG_OUTPUT)).toEqual({ apiUrl: 'https://backoffice.exemple.fr', updateUrl: 'https://maj.exemple.fr/back-office' });
    expect(parseJsonPolicy('{"environmentLabel": " recette ", "crashReportUrl": 3, "other": "x"}')).toEqual({ environmentLabel: 'recette' });
    expect(parseJsonPolicy('{ trailing, }')).toEqual({});
    expect(parseJsonPolicy('[1]')).toEqual({});
    expect(
      parseEnvironmentPolicy({
        BACKOFFICE_POLICY_API_URL: 'https://a.exemple.fr',
        BACKOFFICE_POLICY_SHORT_URL_SERVICE_URL: 'https://s.exemple.fr',
        PATH: '/bin',
      }),
    ).toEqual({
      apiUrl: 'https://a.exemple.fr',
      shortUrlServiceUrl: 'https://s.exemple.fr',
    });
    const file = join(work, 'policy.json');
    writeFileSync(file, JSON.stringify({ appCreationToolUrl: 'https://outil.exemple.fr' }));
    expect(await jsonFileSource(file).read()).toEqual({ appCreationToolUrl: 'https://outil.exemple.fr' });
    expect(await jsonFileSource(join(work, 'absent.json')).read()).toEqual({});
    // One source per OS, the environment last (it wins: scripted installs and tests).
    expect(machinePolicySources('win32', {}).map((source) => source.name)).toEqual([
      'registre Windows (HKLM\\SOFTWARE\\Policies\\Back-office)',
      "variables d'environnement",
    ]);
    expect(machinePolicySources('darwin', {}).map((source) => source.name)).toEqual(['profil de configuration macOS', "variables d'environnement"]);
    expect(machinePolicySources('linux', {}).map((source) => source.name)).toEqual(['/etc/backoffice/policy.json', "variables d'environnement"]);
  });

  it('a later source beats an earlier one, and a source that fails is none', async () => {
    const source = (name: string, values: object): PolicySource => ({ name, read: async () => values });
    const failing: PolicySource = { name: 'broken', read: () => Promise.reject(new Error('no registry')) };
    expect(
      await readPolicy([
        source('machine', { apiUrl: 'https://m.exemple.fr', environmentLabel: 'prod' }),
        failing,
        source('env', { apiUrl: 'https://e.exemple.fr' }),
      ]),
    ).toEqual({
      values: { apiUrl: 'https://e.exemple.fr', environmentLabel: 'prod' },
      locked: [
        { key: 'apiUrl', source: 'env' },
        { key: 'environmentLabel', source: 'machine' },
      ],
    });
  });
});

describe('precedence: policy, then the user, then the defaults', () => {
  it('policy beats the user file, a locked setting cannot be changed, an unlocked one can', async () => {
    const file = join(work, 'settings.json');
    writeFileSync(file, JSON.stringify({ settings: { environmentLabel: 'recette', updateUrl: 'https://perso.exemple.fr' } }));
    const policy = await readPolicy([
      jsonFileSource(join(work, 'policy.json')),
      { name: '/etc/backoffice/policy.json', read: async () => ({ updateUrl: 'https://maj.exemple.fr' }) },
    ]);
    const store = createJsonSettingsStore(file, policy);
    expect(store.get()).toEqual({
      ...DEFAULT_SETTINGS,
      environmentLabel: 'recette',
      updateUrl: 'https://maj.exemple.fr',
      appCreationToolUrl: 'https://outil.exemple.fr',
    });
    expect(() => store.set({ updateUrl: 'https://autre.exemple.fr' })).toThrow(POLICY_MESSAGES.locked('/etc/backoffice/policy.json'));
    expect(store.set({ environmentLabel: 'preprod' }).environmentLabel).toBe('preprod');
    // The user's own value stays in their file, under the policy: lifted, it comes back.
    expect(createJsonSettingsStore(file).get().updateUrl).toBe('https://perso.exemple.fr');
  });

  it('a team server fixed by policy is the workplace: no first-start choice, and the About page says it is locked', async () => {
    const store = createJsonSettingsStore(
      join(work, 'locked.json'),
      await readPolicy([{ name: 'registre Windows', read: async () => ({ apiUrl: 'https://backoffice.exemple.fr' }) }]),
    );
    const services = createMainServices({
      host: 'electron',
      version: () => '1.0.0',
      settings: store,
      files: { exportDestination: async () => null, pickCsv: async () => null, savePdf: async () => null, pickUpload: async () => null },
      embedded: () => Promise.reject(new Error('not started')),
      workplace: {},
    });
    const info = await services.appInfo();
    expect(info.serverChoice).toBeUndefined();
    expect(info.apiUrl).toBe('https://backoffice.exemple.fr');
    expect(info.lockedSettings).toEqual([{ key: 'apiUrl', value: 'https://backoffice.exemple.fr', source: 'registre Windows' }]);
    expect(await services.apiBaseUrl()).toBe('https://backoffice.exemple.fr');
  });
});
