import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { UPDATE_CHANNELS, type Settings } from '@shared/ipc';

/**
 * Machine-wide policy: what IT presets, and locks, for every user of a computer (docs/desktop.md, "Policy"). Each
 * source is a small reader and a parser of its own format, tested on its text; policy beats the user's settings,
 * which beat the build's defaults. Environment variables (scripted installs, tests) beat the machine's sources.
 */
export const POLICY_KEYS = [
  'apiUrl',
  'environmentLabel',
  'updateUrl',
  'updateChannel',
  'crashReportUrl',
  'shortUrlServiceUrl',
  'appCreationToolUrl',
] as const;
export type PolicyKey = (typeof POLICY_KEYS)[number];
export type PolicyValues = Partial<Pick<Settings, PolicyKey>>;

/** A setting a policy fixed, and which source did (said beside it where it shows read-only). */
export interface LockedSetting {
  key: PolicyKey;
  source: string;
}

export interface PolicySource {
  /** How the user is told where the lock comes from. */
  name: string;
  read(): Promise<PolicyValues>;
}

const isKey = (key: string): key is PolicyKey => (POLICY_KEYS as readonly string[]).includes(key);

/** Keeps the known keys with string values, a channel only if it is one (anything else is ignored, never an error). */
function known(entries: Iterable<[string, unknown]>): PolicyValues {
  const values: Record<string, string> = {};
  for (const [key, value] of entries) {
    if (!isKey(key) || typeof value !== 'string') continue;
    if (key === 'updateChannel' && !(UPDATE_CHANNELS as readonly string[]).includes(value.trim())) continue;
    values[key] = value.trim();
  }
  return values as PolicyValues;
}

/** A JSON object of settings (`/etc/backoffice/policy.json`, a macOS profile read as JSON); unreadable: none. */
export function parseJsonPolicy(text: string): PolicyValues {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? known(Object.entries(value)) : {};
  } catch {
    return {};
  }
}

/** `BACKOFFICE_POLICY_API_URL`, `BACKOFFICE_POLICY_UPDATE_URL`…: the key in upper snake case. */
export function parseEnvironmentPolicy(env: NodeJS.ProcessEnv): PolicyValues {
  const name = (key: string) => `BACKOFFICE_POLICY_${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
  return known(POLICY_KEYS.flatMap((key) => (env[name(key)] !== undefined ? [[key, env[name(key)]] as [string, unknown]] : [])));
}

/** The output of `reg query HKLM\SOFTWARE\Policies\Back-office`: one `    name    REG_SZ    value` line a value. */
export function parseRegistryPolicy(output: string): PolicyValues {
  const entries: [string, unknown][] = [];
  for (const line of output.split(/\r?\n/)) {
    const match = /^\s+(\S+)\s+REG_(?:SZ|EXPAND_SZ)\s+(.*)$/.exec(line);
    if (match) entries.push([match[1]!, match[2]!]);
  }
  return known(entries);
}

const run = (command: string, args: string[]) =>
  new Promise<string>((resolve) => execFile(command, args, { timeout: 5000, windowsHide: true }, (error, stdout) => resolve(error ? '' : stdout)));

export const REGISTRY_KEY = 'HKLM\\SOFTWARE\\Policies\\Back-office';
export const LINUX_POLICY_FILE = '/etc/backoffice/policy.json';
export const MACOS_DOMAIN = 'com.backoffice.desktop';

/** A JSON file of settings (Linux: /etc/backoffice/policy.json); absent or unreadable: no policy. */
export function jsonFileSource(file: string): PolicySource {
  return { name: file, read: async () => parseJsonPolicy(await readFile(file, 'utf8').catch(() => '')) };
}

/** The sources of this OS, machine first, then the environment's variables. */
export function machinePolicySources(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): PolicySource[] {
  const sources: PolicySource[] = [];
  if (platform === 'win32')
    sources.push({ name: `registre Windows (${REGISTRY_KEY})`, read: async () => parseRegistryPolicy(await run('reg', ['query', REGISTRY_KEY])) });
  if (platform === 'darwin') {
    const file = `/Library/Managed Preferences/${MACOS_DOMAIN}.plist`;
    sources.push({
      name: 'profil de configuration macOS',
      read: async () => parseJsonPolicy(await run('plutil', ['-convert', 'json', '-o', '-', file])),
    });
  }
  if (platform === 'linux') sources.push(jsonFileSource(LINUX_POLICY_FILE));
  sources.push({ name: "variables d'environnement", read: async () => parseEnvironmentPolicy(env) });
  return sources;
}

/** The policy of all sources, a later source beating an earlier one, with which source fixed each key. */
export async function readPolicy(sources: PolicySource[]): Promise<{ values: PolicyValues; locked: LockedSetting[] }> {
  const values: PolicyValues = {};
  const from = new Map<PolicyKey, string>();
  for (const source of sources) {
    const read = await source.read().catch(() => ({}) as PolicyValues);
    for (const key of POLICY_KEYS) {
      if (read[key] === undefined) continue;
      Object.assign(values, { [key]: read[key] });
      from.set(key, source.name);
    }
  }
  return { values, locked: [...from].map(([key, source]) => ({ key, source })) };
}
