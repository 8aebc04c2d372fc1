import { readFileSync } from 'node:fs';

/** The version of package.json, read once. */
let cached: string | null = null;
export function appVersion(): string {
  if (cached) return cached;
  try {
    cached = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    cached = process.env.npm_package_version ?? '0.0.0';
  }
  return cached;
}
