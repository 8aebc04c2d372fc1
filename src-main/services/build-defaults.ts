import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UPDATE_CHANNELS, type Settings } from '@shared/ipc';
import { isAcceptableApiUrl } from './settings';
import { updateFeedFrom } from './updates';

/**
 * The company's defaults baked into a packaged app by `npm run dist` (scripts/dist.ts), so that a company build
 * updates by itself and, if given, knows the team server, with no file to hand out per user. Read by main as the
 * build's defaults: policy beats the user's settings, which beat these, which beat DEFAULT_SETTINGS.
 */
export type BuildDefaults = Partial<Pick<Settings, 'updateUrl' | 'updateChannel' | 'apiUrl'>>;

/** The file `npm run dist` writes beside the main bundle (out/main, inside the asar archive: integrity-checked). */
export const BUILD_DEFAULTS_FILE = 'build-defaults.json';

/** The build machine's variables, documented in docs/deployment.md. */
export const BUILD_DEFAULTS_ENV = {
  updateUrl: 'BACKOFFICE_BUILD_UPDATE_URL',
  updateChannel: 'BACKOFFICE_BUILD_UPDATE_CHANNEL',
  apiUrl: 'BACKOFFICE_BUILD_API_URL',
} as const;

type Value = { ok: true; value: string } | { ok: false; reason: string };

function check(key: keyof BuildDefaults, raw: string): Value {
  const value = raw.trim();
  if (key === 'updateChannel')
    return (UPDATE_CHANNELS as readonly string[]).includes(value)
      ? { ok: true, value }
      : { ok: false, reason: `not one of ${UPDATE_CHANNELS.join(', ')}` };
  if (key === 'updateUrl') {
    const feed = updateFeedFrom(value);
    if (!feed) return { ok: false, reason: 'not an https:// folder nor s3://bucket/folder' };
    return { ok: true, value: feed.provider === 'generic' ? feed.url : value };
  }
  return isAcceptableApiUrl(value) ? { ok: true, value: value.replace(/\/+$/, '') } : { ok: false, reason: 'not an https:// address' };
}

/** Keeps the known keys whose values are acceptable; what is not is left out (an old or hand-made file never stops the app). */
function known(entries: Iterable<[string, unknown]>): BuildDefaults {
  const defaults: Record<string, string> = {};
  for (const [key, raw] of entries) {
    if (!(key in BUILD_DEFAULTS_ENV) || typeof raw !== 'string' || raw.trim() === '') continue;
    const checked = check(key as keyof BuildDefaults, raw);
    if (checked.ok) defaults[key] = checked.value;
  }
  return defaults as BuildDefaults;
}

/** The defaults of a build from the build machine's environment; a set variable that is not acceptable is an error. */
export function buildDefaultsFromEnv(env: Record<string, string | undefined>): { defaults: BuildDefaults; errors: string[] } {
  const errors: string[] = [];
  for (const [key, name] of Object.entries(BUILD_DEFAULTS_ENV)) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const checked = check(key as keyof BuildDefaults, raw);
    if (!checked.ok) errors.push(`${name}=${raw}: ${checked.reason}`);
  }
  const defaults = known(Object.entries(BUILD_DEFAULTS_ENV).map(([key, name]) => [key, env[name]] as [string, unknown]));
  return { defaults, errors };
}

function writeBuildDefaults(file: string, defaults: BuildDefaults): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(defaults, null, 2)}\n`);
}

/** The defaults a build baked; none (a development run, `npm run web`) when the file is absent or unreadable. */
export function readBuildDefaults(file: string): BuildDefaults {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? known(Object.entries(value)) : {};
  } catch {
    return {};
  }
}

/**
 * `npm run dist`'s step before electron-builder: the build machine's variables written into `file`, and one line
 * saying what the build will do; a variable set to something unacceptable stops the build (an Error).
 */
export function bakeBuildDefaults(env: Record<string, string | undefined>, file: string): string[] {
  const { defaults, errors } = buildDefaultsFromEnv(env);
  if (errors.length) throw new Error(`build defaults refused: ${errors.join('; ')}`);
  writeBuildDefaults(file, defaults);
  return [
    defaults.updateUrl
      ? `Updates: from ${defaults.updateUrl}, channel ${defaults.updateChannel ?? 'stable'} (${BUILD_DEFAULTS_ENV.updateUrl})`
      : `Updates: no feed baked (${BUILD_DEFAULTS_ENV.updateUrl} not set): only a policy or the user's settings can name one`,
    defaults.apiUrl
      ? `Team server: ${defaults.apiUrl} (${BUILD_DEFAULTS_ENV.apiUrl})`
      : `Team server: none baked (${BUILD_DEFAULTS_ENV.apiUrl} not set): the first start asks where to work`,
  ];
}
