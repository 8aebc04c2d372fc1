import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseUpdateInfo, resolveFiles } from 'electron-updater/out/providers/Provider';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSettingsStore } from '../../src-main/services/settings';
import { isNewerVersion, startUpdatePolicy, updateFeedFrom, type UpdateFeed, type Updater } from '../../src-main/services/updates';

/** An update feed on loopback, as electron-builder publishes it: latest.yml beside the installer. */
const installer = Buffer.from('MZ… a Back-office installer, version 1.2.0');
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');
let feed = { version: '1.2.0', bytes: installer };
/** What beta.yml names: a pre-release of the next version (electron-builder writes it for a x.y.z-beta.n build). */
const betaVersion = '1.3.0-beta.1';
const requests: string[] = [];
let server: Server;
let feedUrl = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const channel = /^\/releases\/(latest|beta)\.yml/.exec(request.url ?? '')?.[1];
    if (channel) {
      const version = channel === 'beta' ? betaVersion : feed.version;
      response.setHeader('content-type', 'text/yaml');
      response.end(
        [
          `version: ${version}`,
          'files:',
          `  - url: Back-office-Setup-${version}.exe`,
          `    sha512: ${sha512(installer)}`,
          `    size: ${installer.length}`,
          `path: Back-office-Setup-${version}.exe`,
          `sha512: ${sha512(installer)}`,
          "releaseDate: '2026-11-20T10:00:00.000Z'",
          '',
        ].join('\n'),
      );
    } else if (
      request.url === `/releases/Back-office-Setup-${feed.version}.exe` ||
      request.url === `/releases/Back-office-Setup-${betaVersion}.exe`
    ) {
      response.end(feed.bytes);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/releases/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * electron-updater's autoUpdater needs Electron; this stands in for it with the same feed handling: latest.yml
 * parsed and its files resolved by electron-updater's own Provider code, the file downloaded and checked against
 * its sha512. Only quitAndInstall (quits Electron, runs the installer) is recorded instead of done.
 */
function feedUpdater() {
  const done = { installs: 0, downloads: 0 };
  let base: URL | null = null;
  let info: ReturnType<typeof parseUpdateInfo> | null = null;
  const updater: Updater = {
    autoDownload: true,
    autoInstallOnAppQuit: false,
    channel: null,
    allowPrerelease: false,
    allowDowngrade: false,
    setFeedURL(options: UpdateFeed) {
      if (options.provider !== 'generic') throw new Error('generic feed expected');
      base = new URL(`${options.url}/`);
    },
    async checkForUpdates() {
      // electron-updater's GenericProvider: `${channel}.yml`, 'latest' when no channel is set.
      const name = `${updater.channel ?? 'latest'}.yml`;
      const url = new URL(name, base!);
      const answer = await fetch(url);
      if (!answer.ok) throw new Error(`feed answered ${answer.status}`);
      info = parseUpdateInfo(await answer.text(), name, url);
      return { updateInfo: info };
    },
    async downloadUpdate() {
      done.downloads += 1;
      const [file] = resolveFiles(info!, base!);
      const bytes = Buffer.from(await (await fetch(file!.url)).arrayBuffer());
      if (sha512(bytes) !== file!.info.sha512) throw new Error('sha512 checksum mismatch');
      return [file!.url.href];
    },
    quitAndInstall() {
      done.installs += 1;
    },
  };
  return { updater, done };
}

const log = { info: () => undefined, warn: () => undefined };

describe('updates (electron-updater policy, against a feed on loopback)', () => {
  it('takes its feed from the settings: https or s3, http only on this machine, nothing else', () => {
    expect(updateFeedFrom('https://updates.example.com/backoffice/')).toEqual({ provider: 'generic', url: 'https://updates.example.com/backoffice' });
    expect(updateFeedFrom('http://127.0.0.1:8080/r')).toEqual({ provider: 'generic', url: 'http://127.0.0.1:8080/r' });
    expect(updateFeedFrom('s3://backoffice-releases/desktop/stable?region=eu-west-3')).toEqual({
      provider: 's3',
      bucket: 'backoffice-releases',
      path: 'desktop/stable',
      region: 'eu-west-3',
    });
    for (const url of ['', 'http://updates.example.com/', 'https://user:pw@updates.example.com/', 'ftp://updates.example.com/', 'file:///tmp/feed'])
      expect(updateFeedFrom(url), url).toBeNull();
    // The settings refuse such an address, and read a hand-written one as "no updates".
    const data = new Map<string, unknown>();
    const settings = createSettingsStore({ get: (k) => data.get(k), set: (k, v) => void data.set(k, v), delete: (k) => void data.delete(k) });
    expect(() => settings.set({ updateUrl: 'http://updates.example.com/' })).toThrow("L'adresse des mises à jour doit commencer par https://");
    expect(settings.set({ updateUrl: 'https://updates.example.com/backoffice/' }).updateUrl).toBe('https://updates.example.com/backoffice');
    data.set('settings', { updateUrl: 'javascript:alert(1)', crashReportUrl: 'http://crash.example.com' });
    expect(settings.get()).toMatchObject({ updateUrl: '', crashReportUrl: '' });
  });

  it('compares versions: only a newer one is an update, never a downgrade', () => {
    expect(isNewerVersion('1.2.0', '1.1.9')).toBe(true);
    expect(isNewerVersion('1.10.0', '1.9.0')).toBe(true);
    expect(isNewerVersion('1.2.0', '1.2.0')).toBe(false);
    expect(isNewerVersion('1.1.0', '1.2.0')).toBe(false);
    expect(isNewerVersion('1.2.0-beta.1', '1.2.0')).toBe(false);
    expect(isNewerVersion('not a version', '1.2.0')).toBe(false);
  });

  it('downloads a newer version in the background, asks, and restarts on «Redémarrer maintenant»', async () => {
    feed = { version: '1.2.0', bytes: installer };
    const { updater, done } = feedUpdater();
    const asked: string[] = [];
    const policy = startUpdatePolicy({ updater, currentVersion: '1.1.0', updateUrl: () => feedUrl, ask: async (v) => (asked.push(v), true), log });
    expect(await policy.check()).toBe('restarting');
    policy.stop();
    expect(asked).toEqual(['1.2.0']);
    expect(done).toEqual({ downloads: 1, installs: 1 });
    expect(updater.autoDownload).toBe(false);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(requests).toContain('/releases/Back-office-Setup-1.2.0.exe');
  });

  it('«Plus tard» leaves it for the next quit and does not ask again for that version', async () => {
    const { updater, done } = feedUpdater();
    const asked: string[] = [];
    const policy = startUpdatePolicy({ updater, currentVersion: '1.1.0', updateUrl: () => feedUrl, ask: async (v) => (asked.push(v), false), log });
    expect(await policy.check()).toBe('later');
    expect(await policy.check()).toBe('later');
    policy.stop();
    expect(asked).toEqual(['1.2.0']);
    expect(done).toEqual({ downloads: 1, installs: 0 });
  });

  it('does nothing for the running version, a broken download or no feed', async () => {
    const current = feedUpdater();
    const asked: string[] = [];
    const ask = async (v: string) => (asked.push(v), true);
    const same = startUpdatePolicy({ updater: current.updater, currentVersion: '1.2.0', updateUrl: () => feedUrl, ask, log });
    expect(await same.check()).toBe('up-to-date');
    same.stop();
    expect(current.done.downloads).toBe(0);

    feed = { version: '1.2.0', bytes: Buffer.from('tampered') };
    const broken = feedUpdater();
    const warnings: string[] = [];
    const policy = startUpdatePolicy({
      updater: broken.updater,
      currentVersion: '1.1.0',
      updateUrl: () => feedUrl,
      ask,
      log: { ...log, warn: (m) => warnings.push(m) },
    });
    expect(await policy.check()).toBe('failed');
    policy.stop();
    expect(warnings.join()).toContain('sha512 checksum mismatch');
    feed = { version: '1.2.0', bytes: installer };

    const before = requests.length;
    const off = startUpdatePolicy({ updater: feedUpdater().updater, currentVersion: '1.1.0', updateUrl: () => '', ask, log });
    expect(await off.check()).toBe('disabled');
    off.stop();
    expect(requests.length).toBe(before);
    expect(asked).toEqual([]);
  });

  it('checks at start and again every interval', async () => {
    const { updater } = feedUpdater();
    const before = requests.filter((url) => url.startsWith('/releases/latest.yml')).length;
    const policy = startUpdatePolicy({ updater, currentVersion: '1.2.0', updateUrl: () => feedUrl, ask: async () => false, log, intervalMs: 20 });
    await vi.waitFor(() => expect(requests.filter((url) => url.startsWith('/releases/latest.yml')).length).toBeGreaterThanOrEqual(before + 3));
    policy.stop();
  });

  it('the beta channel reads beta.yml and takes its pre-release; stable reads latest.yml; each check is dated', async () => {
    let channel: 'stable' | 'beta' = 'beta';
    const { updater } = feedUpdater();
    const asked: string[] = [];
    const policy = startUpdatePolicy({
      updater,
      currentVersion: '1.2.0',
      updateUrl: () => feedUrl,
      updateChannel: () => channel,
      ask: async (v) => (asked.push(v), false),
      log,
      now: () => new Date('2026-12-07T09:30:00.000Z'),
    });
    expect(await policy.check()).toBe('later');
    expect(asked).toEqual([betaVersion]);
    expect(updater).toMatchObject({ channel: 'beta', allowPrerelease: true, allowDowngrade: false });
    expect(policy.lastCheck()).toEqual({ at: '2026-12-07T09:30:00.000Z', outcome: 'later' });
    // Back to stable (a changed setting, read at the next check): latest.yml, and no downgrade from the beta.
    channel = 'stable';
    expect(await policy.check()).toBe('up-to-date');
    expect(updater).toMatchObject({ channel: null, allowPrerelease: false, allowDowngrade: false });
    expect(requests.filter((url) => url.startsWith('/releases/beta.yml'))).toHaveLength(1);
    policy.stop();
  });
});
