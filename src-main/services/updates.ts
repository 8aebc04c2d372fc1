import semver from 'semver';
import type { UpdateChannel } from '@shared/ipc';

/**
 * The desktop app's update policy, without Electron (electron-updater loads electron at import): which feed the
 * settings name, when to check, whether an answer is newer, and the question before restarting. The Electron host
 * hands it electron-updater's autoUpdater (hosts/electron-updates.ts); the web host never runs it.
 */

/** electron-updater's feed options (builder-util-runtime's GenericServerOptions and S3Options). */
export type UpdateFeed = { provider: 'generic'; url: string } | { provider: 's3'; bucket: string; path?: string; region?: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * `updateUrl` of the settings as a feed: an https folder holding latest.yml (generic; plain http only on this
 * machine), or `s3://bucket/folder?region=eu-west-3`. Anything else (empty, other schemes, credentials in the
 * address): null, no updates.
 */
export function updateFeedFrom(updateUrl: string): UpdateFeed | null {
  const url = URL.parse(updateUrl.trim());
  if (!url || url.username || url.password) return null;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) {
    return { provider: 'generic', url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
  }
  if (url.protocol === 's3:' && /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname)) {
    const path = url.pathname.replace(/^\/+|\/+$/g, '');
    const region = url.searchParams.get('region');
    return { provider: 's3', bucket: url.hostname, ...(path ? { path } : {}), ...(region ? { region } : {}) };
  }
  return null;
}

/** Whether `candidate` (the feed's latest.yml) is a newer version than the running one; never a downgrade. */
export function isNewerVersion(candidate: string, current: string): boolean {
  const next = semver.valid(candidate);
  const running = semver.valid(current);
  return Boolean(next && running && semver.gt(next, running));
}

/** The part of electron-updater's AppUpdater the policy drives. */
export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  /** electron-updater's channel: null reads latest.yml, 'beta' beta.yml (its setter also allows downgrades). */
  channel: string | null;
  allowPrerelease: boolean;
  allowDowngrade: boolean;
  setFeedURL(feed: UpdateFeed): void;
  checkForUpdates(): Promise<{ updateInfo: { version: string } } | null>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(): void;
}

export type UpdateOutcome = 'disabled' | 'up-to-date' | 'restarting' | 'later' | 'failed';

/** Every 4 hours, after the check at start. */
export const UPDATE_CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

export interface UpdatePolicyOptions {
  updater: Updater;
  currentVersion: string;
  /** The settings' updateUrl, read at each check (a changed setting applies at the next one). */
  updateUrl: () => string;
  /** The settings' updateChannel, read at each check too. */
  updateChannel?: () => UpdateChannel;
  /** Asks whether to restart now («Une mise à jour est prête»); true for «Redémarrer maintenant». */
  ask: (version: string) => Promise<boolean>;
  log: { info(message: string): void; warn(message: string): void };
  intervalMs?: number;
  now?: () => Date;
}

/** The last check since this start (About page): when it ended and how. */
export interface UpdateCheck {
  at: string;
  outcome: UpdateOutcome;
}

export interface UpdatePolicy {
  /** One check: download in the background, then the question. A check already under way is joined. */
  check(): Promise<UpdateOutcome>;
  /** The last check that ended, if any. */
  lastCheck(): UpdateCheck | null;
  stop(): void;
}

/**
 * Checks at start and every `intervalMs`. A newer version is downloaded in the background, then the user is asked
 * whether to restart; «Plus tard» leaves it to be installed when the app quits (autoInstallOnAppQuit) and is not
 * asked again for that version.
 */
export function startUpdatePolicy(options: UpdatePolicyOptions): UpdatePolicy {
  const { updater, log } = options;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = true;
  let feedKey = '';
  let declined: string | null = null;
  let running: Promise<UpdateOutcome> | null = null;
  let last: UpdateCheck | null = null;
  const now = options.now ?? (() => new Date());

  const run = async (): Promise<UpdateOutcome> => {
    const feed = updateFeedFrom(options.updateUrl());
    if (!feed) return 'disabled';
    const channel = options.updateChannel?.() ?? 'stable';
    const key = JSON.stringify([feed, channel]);
    if (key !== feedKey) {
      updater.setFeedURL(feed);
      // Beta reads beta.yml and takes pre-releases; stable reads latest.yml. Never a downgrade (isNewerVersion).
      updater.channel = channel === 'beta' ? 'beta' : null;
      updater.allowPrerelease = channel === 'beta';
      updater.allowDowngrade = false;
      feedKey = key;
    }
    try {
      const found = await updater.checkForUpdates();
      const version = found?.updateInfo.version;
      if (!version || !isNewerVersion(version, options.currentVersion)) return 'up-to-date';
      if (declined === version) return 'later';
      log.info(`update ${version} found, downloading`);
      await updater.downloadUpdate();
      if (await options.ask(version)) {
        log.info(`update ${version} downloaded, restarting to install it`);
        updater.quitAndInstall();
        return 'restarting';
      }
      declined = version;
      log.info(`update ${version} downloaded, installed when the app quits`);
      return 'later';
    } catch (error) {
      log.warn(`update check failed: ${error instanceof Error ? error.message : String(error)}`);
      return 'failed';
    }
  };

  const check = () => {
    running ??= run()
      .then((outcome) => {
        last = { at: now().toISOString(), outcome };
        return outcome;
      })
      .finally(() => (running = null));
    return running;
  };
  void check();
  const timer = setInterval(() => void check(), options.intervalMs ?? UPDATE_CHECK_INTERVAL_MS);
  timer.unref();
  return { check, lastCheck: () => last, stop: () => clearInterval(timer) };
}
