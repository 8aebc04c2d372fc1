import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const out = (path = '') => join(root, 'out', path);

/** Every file under out/<folder>, as paths relative to out/. */
export function builtFiles(folder: string): string[] {
  return readdirSync(out(folder), { recursive: true, encoding: 'utf8' }).map((file) => join(folder, file));
}

/** The specifiers a built module imports: static (`import … from`, `import '…'`, `require`) and dynamic. */
export function importsOf(code: string): { statics: string[]; dynamics: string[] } {
  const statics = [
    ...code.matchAll(/^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s*)?["']([^"']+)["']/gm),
    ...code.matchAll(/\brequire\(["']([^"']+)["']\)/g),
  ].map((match) => match[1]);
  const dynamics = [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
  return { statics, dynamics };
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The bare specifiers a built entry reaches through static imports only (what loads when the entry starts),
 * following the relative imports between built files.
 */
export function staticPackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of importsOf(readFileSync(file, 'utf8')).statics) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(packageOf(specifier));
    }
  };
  visit(out(entry));
  return packages;
}
