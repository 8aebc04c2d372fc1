import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The .ts/.tsx files under `dir` (none of node_modules or migrations); `.d.ts` files only when asked for. */
export function sourceFiles(dir: string, options: { declarations?: boolean } = {}): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = join(dir, name);
    if (name === 'node_modules' || name === 'migrations') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full, options);
    return /\.(ts|tsx)$/.test(name) && (options.declarations || !name.endsWith('.d.ts')) ? [full] : [];
  });
}
