import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { settingsSchema, type Settings } from '@shared/ipc';
import type { KeyValueStore } from './session-vault';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export interface SettingsStore {
  get(): Settings;
  set(patch: Partial<Settings>): Settings;
  getWindowBounds(): WindowBounds | null;
  setWindowBounds(bounds: WindowBounds): void;
}

/** Empty API URL: the app starts its own embedded server. The environment label is the spec's 'prod'. */
export const DEFAULT_SETTINGS: Settings = { apiUrl: '', environmentLabel: 'prod' };

export const INVALID_API_URL = "L'adresse du serveur doit commencer par http:// ou https://";

function checkedApiUrl(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') return '';
  try {
    const url = new URL(trimmed);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href.replace(/\/$/, '');
  } catch {
    // fall through
  }
  throw new Error(INVALID_API_URL);
}

function merged(current: Settings, patch: Partial<Settings>): Settings {
  const next = settingsSchema.parse({ ...current, ...patch });
  return { ...next, apiUrl: checkedApiUrl(next.apiUrl) };
}

/** Settings on a key-value backend (electron-store in the desktop app). */
export function createSettingsStore(backend: KeyValueStore): SettingsStore {
  const read = (): Settings => {
    const parsed = settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...((backend.get('settings') as object | undefined) ?? {}) });
    return parsed.success ? parsed.data : { ...DEFAULT_SETTINGS };
  };
  return {
    get: read,
    set(patch) {
      const next = merged(read(), patch);
      backend.set('settings', next);
      return next;
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

/** The web host's settings: one JSON file, written atomically, a corrupt file read as defaults. */
export function createJsonSettingsStore(filePath: string): SettingsStore {
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
    writeFileSync(temporary, JSON.stringify(all, null, 2));
    renameSync(temporary, filePath);
  }
  return createSettingsStore(backend);
}
