import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, INVALID_API_URL, INVALID_LINK_URL, createJsonSettingsStore } from '../../src-main/services/settings';

const work = mkdtempSync(join(tmpdir(), 'bo-settings-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('settings', () => {
  it("defaults to the embedded server and the spec's 'prod' label, and round-trips through the file", () => {
    const file = join(work, 'a', 'settings.json');
    const store = createJsonSettingsStore(file);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    expect(store.get().environmentLabel).toBe('prod');
    store.set({ apiUrl: 'https://api.exemple.fr/' });
    store.setWindowBounds({ width: 1200, height: 800, x: 10, y: 20 });
    const reopened = createJsonSettingsStore(file);
    expect(reopened.get().apiUrl).toBe('https://api.exemple.fr');
    expect(reopened.getWindowBounds()).toEqual({ width: 1200, height: 800, x: 10, y: 20 });
  });

  it('refuses an API URL that is not http(s), keeping the previous value', () => {
    const file = join(work, 'b.json');
    const store = createJsonSettingsStore(file);
    store.set({ apiUrl: 'http://127.0.0.1:4000' });
    expect(() => store.set({ apiUrl: 'file:///etc/passwd' })).toThrow(INVALID_API_URL);
    expect(() => store.set({ apiUrl: 'not a url' })).toThrow(INVALID_API_URL);
    expect(store.get().apiUrl).toBe('http://127.0.0.1:4000');
  });

  it('takes plain http only for a server on this machine: passwords and tokens never cross a network in clear', () => {
    const store = createJsonSettingsStore(join(work, 'http.json'));
    for (const address of ['http://192.168.1.20:4000', 'http://api.exemple.fr', 'http://127.0.0.1.nip.io', 'https://user:pw@api.exemple.fr']) {
      expect(() => store.set({ apiUrl: address }), address).toThrow(INVALID_API_URL);
    }
    for (const address of ['http://127.0.0.1:4000', 'http://localhost:4000', 'http://[::1]:4000', 'https://api.exemple.fr/v1']) {
      expect(store.set({ apiUrl: address }).apiUrl).toBe(address);
    }
  });

  it('keeps the external tool addresses when http(s), refuses others, and ignores a hand-edited javascript: link', () => {
    const file = join(work, 'links.json');
    const store = createJsonSettingsStore(file);
    expect(store.set({ shortUrlServiceUrl: ' https://s.exemple.fr/ ' }).shortUrlServiceUrl).toBe('https://s.exemple.fr');
    expect(() => store.set({ appCreationToolUrl: 'javascript:alert(1)' })).toThrow(INVALID_LINK_URL);
    expect(store.get().appCreationToolUrl).toBe('');
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(
      file,
      JSON.stringify({ ...stored, settings: { ...stored.settings, appCreationToolUrl: 'javascript:alert(1)', apiUrl: 'api.exemple.fr' } }),
    );
    expect(store.get()).toMatchObject({ appCreationToolUrl: '', shortUrlServiceUrl: 'https://s.exemple.fr', apiUrl: 'api.exemple.fr' });
  });

  it('tolerates a corrupt file', () => {
    const file = join(work, 'c.json');
    writeFileSync(file, '{ this is not json');
    const store = createJsonSettingsStore(file);
    expect(store.get()).toEqual(DEFAULT_SETTINGS);
    store.set({ environmentLabel: 'recette' });
    expect(JSON.parse(readFileSync(file, 'utf8')).settings.environmentLabel).toBe('recette');
  });
});
