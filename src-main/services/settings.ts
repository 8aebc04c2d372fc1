import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { settingsSchema, type Settings } from '@shared/ipc';
import { DESKTOP_MESSAGES } from '@shared/messages';
import { DIAGNOSTICS_MESSAGES } from '@shared/messages/diagnostics';
import { POLICY_MESSAGES } from '@shared/messages/workplace';
import type { BuildDefaults } from './build-defaults';
import type { LockedSetting, PolicyValues } from './policy';
import type { KeyValueStore } from './session-vault';
import { updateFeedFrom } from './updates';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export interface SettingsStore {
  /** The settings file this start could not read, set aside under another name (null: read as it was). */
  readonly setAside?: SetAsideFile | null;
  /** The settings a machine policy fixed (services/policy.ts): read-only, with their source. */
  readonly locked?: readonly LockedSetting[];
  get(): Settings;
  set(patch: Partial<Settings>): Settings;
  getWindowBounds(): WindowBounds | null;
  setWindowBounds(bounds: WindowBounds): void;
}

/**
 * Empty API URL: the app starts its own embedded server. The environment label is the spec's 'prod'. No address
 * for the external tools: their menu entries stay hidden.
 */
export const DEFAULT_SETTINGS: Settings = {
  apiUrl: '',
  environmentLabel: 'prod',
  shortUrlServiceUrl: '',
  appCreationToolUrl: '',
  updateUrl: '',
  updateChannel: 'stable',
  crashReportUrl: '',
  workplace: '',
};

export const INVALID_API_URL = DESKTOP_MESSAGES.invalidServerUrl;
export const INVALID_LINK_URL = DESKTOP_MESSAGES.invalidLinkUrl;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The API receives passwords and tokens: https, or plain http only to this machine (the embedded server, a
 * server started beside the app), where nothing crosses a network.
 */
export function isAcceptableApiUrl(value: string): boolean {
  const url = URL.parse(value.trim());
  if (!url || url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** '' stays '' (not set); anything else must be an http(s) address, kept without its trailing slash. */
function checkedUrl(
  value: string,
  message: string,
  accept: (url: URL) => boolean = (url) => url.protocol === 'http:' || url.protocol === 'https:',
): string {
  const trimmed = value.trim();
  if (trimmed === '') return '';
  const url = URL.parse(trimmed);
  if (url && accept(url)) return url.href.replace(/\/$/, '');
  throw new Error(message);
}

/** The API address as it will be stored ('' for the embedded server), or an Error with the reason. */
export function checkApiUrl(value: string): string {
  return checkedUrl(value, INVALID_API_URL, (url) => isAcceptableApiUrl(url.href));
}

/** The addresses of the external tools of the top menu (spec §2). */
const LINK_FIELDS = ['shortUrlServiceUrl', 'appCreationToolUrl'] as const;

/** The update feed (services/updates.ts) and the crash reports' upload address: https only. */
function checkUpdateUrls(settings: Settings): Pick<Settings, 'updateUrl' | 'crashReportUrl'> {
  return {
    updateUrl: checkedUrl(settings.updateUrl, DIAGNOSTICS_MESSAGES.invalidUpdateUrl, (url) => updateFeedFrom(url.href) !== null),
    crashReportUrl: checkedUrl(
      settings.crashReportUrl,
      DIAGNOSTICS_MESSAGES.invalidCrashReportUrl,
      (url) => url.protocol === 'https:' && !url.username && !url.password,
    ),
  };
}

function checked(settings: Settings): Settings {
  const next = { ...settings, apiUrl: checkApiUrl(settings.apiUrl), ...checkUpdateUrls(settings) };
  for (const field of LINK_FIELDS) next[field] = checkedUrl(settings[field], INVALID_LINK_URL);
  return next;
}

function merged(current: Settings, patch: Partial<Settings>): Settings {
  return checked(settingsSchema.parse({ ...current, ...patch }));
}

/**
 * A hand-edited file may hold anything: a link that is not http(s) reads as not set (it would become an href).
 * A bad API address is kept, so that calls fail with 'Serveur injoignable' rather than silently switching to
 * the embedded server.
 */
function sanitized(settings: Settings): Settings {
  const next = { ...settings };
  for (const field of LINK_FIELDS) {
    try {
      next[field] = checkedUrl(settings[field], INVALID_LINK_URL);
    } catch {
      next[field] = '';
    }
  }
  // A hand-written update or crash address that is not acceptable is off (no updates, no upload), not an error.
  for (const field of ['updateUrl', 'crashReportUrl'] as const) {
    try {
      next[field] = checkUpdateUrls({ ...DEFAULT_SETTINGS, [field]: settings[field] })[field];
    } catch {
      next[field] = '';
    }
  }
  return next;
}

/** A settings file a start could not read, and where it was set aside. */
export interface SetAsideFile {
  file: string;
  copy: string;
  /** Why it could not be read (the parser's message), for the log. */
  reason: string;
}

/**
 * A file that is not a JSON object (a trailing comma left by a hand edit, a truncated write) is renamed beside
 * itself with the time, so that the app starts on its defaults instead of stopping, and nothing the user wrote is
 * lost; the copy's name is in the answer. An absent file is no problem (null).
 */
export function setAsideUnreadableFile(file: string, now = new Date()): SetAsideFile | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    text = '';
  }
  let reason: string;
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return null;
    reason = 'not a JSON object';
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
  }
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const copy = `${file.replace(/\.json$/, '')}.illisible-${stamp}.json`;
  try {
    renameSync(file, copy);
  } catch {
    // Not even renamed (a read-only folder): the store then reads it as defaults, or the host falls back to memory.
    return null;
  }
  return { file, copy, reason };
}

/**
 * The user's own settings without the empty values that came from an older start writing every default into the
 * file: an empty address there is "not set", so a build's default shows through, except the API address of a
 * user who chose to work on this computer.
 */
function ownValues(own: Record<string, unknown>, buildDefaults: BuildDefaults): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(own).filter(([key, value]) => !(key in buildDefaults && value === '' && !(key === 'apiUrl' && own.workplace === 'local'))),
  );
}

/**
 * Settings on a key-value backend (electron-store in the desktop app); `setAside`: what this start set aside;
 * `buildDefaults`: what `npm run dist` baked (services/build-defaults.ts). The file keeps only what the user set.
 */
export function createSettingsStore(
  backend: KeyValueStore,
  setAside: SetAsideFile | null = null,
  policy: { values: PolicyValues; locked: LockedSetting[] } = { values: {}, locked: [] },
  buildDefaults: BuildDefaults = {},
): SettingsStore {
  const defaults: Settings = { ...DEFAULT_SETTINGS, ...buildDefaults };
  const own = (): Record<string, unknown> => {
    const value = backend.get('settings');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  };
  /** The user's own settings (what the file keeps), over the build's defaults. */
  const readUser = (): Settings => {
    const parsed = settingsSchema.safeParse({ ...defaults, ...ownValues(own(), buildDefaults) });
    return parsed.success ? parsed.data : { ...defaults };
  };
  // Policy beats the user's settings, which beat the defaults; a policy's team server is the workplace.
  const read = (): Settings => sanitized({ ...readUser(), ...policy.values, ...(policy.values.apiUrl ? { workplace: 'team' as const } : {}) });
  return {
    setAside,
    locked: policy.locked,
    get: read,
    set(patch) {
      const fixed = policy.locked.find(({ key }) => key in patch && patch[key] !== policy.values[key]);
      if (fixed) throw new Error(POLICY_MESSAGES.locked(fixed.source));
      const next = merged(sanitized(readUser()), patch);
      // Only what the user set before and sets now: a default written here would hide the next build's.
      const kept = new Set([...Object.keys(own()), ...Object.keys(patch)]);
      backend.set('settings', Object.fromEntries(Object.entries(next).filter(([key]) => kept.has(key))));
      return read();
    },
    getWindowBounds() {
      const bounds = backend.get('windowBounds') as WindowBounds | undefined;
      return bounds && Number.isFinite(bounds.width) && Number.isFinite(bounds.height) ? bounds : null;
    },
    setWindowBounds(bounds) {
      backend.set('windowBounds', bounds);
    },
  };
}

/**
 * The web host's settings: one JSON file, written atomically. A file unreadable at start is set aside (its copy
 * named in `setAside`); one that turns corrupt later reads as defaults.
 */
export function createJsonSettingsStore(
  filePath: string,
  policy?: Parameters<typeof createSettingsStore>[2],
  buildDefaults?: BuildDefaults,
): SettingsStore {
  const setAside = setAsideUnreadableFile(filePath);
  const backend: KeyValueStore = {
    get(key) {
      return readAll()[key];
    },
    set(key, value) {
      writeAll({ ...readAll(), [key]: value });
    },
    delete(key) {
      const all = readAll();
      delete all[key];
      writeAll(all);
    },
  };
  function readAll(): Record<string, unknown> {
    try {
      const value = JSON.parse(readFileSync(filePath, 'utf8'));
      return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
    } catch {
      return {};
    }
  }
  function writeAll(all: Record<string, unknown>): void {
    mkdirSync(dirname(filePath), { recursive: true });
    const temporary = `${filePath}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(all, null, 2), { mode: 0o600 });
    renameSync(temporary, filePath);
  }
  return createSettingsStore(backend, setAside, policy, buildDefaults);
}
