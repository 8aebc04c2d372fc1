import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files';

/**
 * `dependencies` is what a production install (`npm ci --omit=dev`: the team server) and the packed desktop app
 * carry. Packages only the renderer imports are bundled by Vite into out/renderer: they are devDependencies, or
 * electron-builder would copy them into the app's asar a second time. Packages the server, main or preload
 * import (not as types) are dependencies, or a production install would lack them. The desktop app's own packages
 * (what only main and the preload import: the keychain, its settings store, its updater…) are optionalDependencies:
 * the team server installs with `npm ci --omit=dev --omit=optional` and carries no desktop package (no C++ build of
 * keytar, no libsecret), while the desktop install and electron-builder take them as production packages.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const layers = ['src-renderer', 'src-main', 'src-server', 'src-shared', 'src-preload'] as const;

/** Package → the layers whose code imports it at run time (type-only imports left out). */
function importers(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const layer of layers) {
    // Build configurations (vite.config.ts) run at build time only.
    for (const file of sourceFiles(join(root, layer)).filter((path) => !path.endsWith('.config.ts'))) {
      const code = readFileSync(file, 'utf8');
      const specifiers = [
        ...code.matchAll(/^\s*(?:import|export)\s(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm),
        ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((match) => match[1]);
      for (const specifier of specifiers) {
        if (/^(\.|node:|@shared\/|virtual:)/.test(specifier)) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        (found.get(name) ?? found.set(name, new Set()).get(name)!).add(relative(root, join(root, layer)));
      }
    }
  }
  return found;
}

describe('package.json dependencies', () => {
  const used = importers();

  it('holds no package that only the renderer imports', () => {
    const rendererOnly = Object.keys(packageJson.dependencies).filter((name) => {
      const layersOf = used.get(name);
      return layersOf !== undefined && [...layersOf].every((layer) => layer === 'src-renderer');
    });
    expect(rendererOnly).toEqual([]);
  });

  it('holds every package the server imports at run time in dependencies, which the team server installs', () => {
    const missing = [...used]
      .filter(([, layersOf]) => layersOf.has('src-server') || layersOf.has('src-shared'))
      .map(([name]) => name)
      .filter((name) => !packageJson.dependencies[name]);
    expect(missing).toEqual([]);
  });

  it('holds every package main or the preload imports at run time, the desktop-only ones as optional', () => {
    const missing = [...used]
      .filter(([name, layersOf]) => (layersOf.has('src-main') || layersOf.has('src-preload')) && name !== 'electron')
      .map(([name]) => name)
      .filter((name) => !packageJson.dependencies[name] && !packageJson.optionalDependencies[name]);
    expect(missing).toEqual([]);
    const desktopOnly = Object.keys(packageJson.optionalDependencies).filter((name) => {
      const layersOf = used.get(name);
      return !layersOf || layersOf.has('src-server') || layersOf.has('src-shared') || layersOf.has('src-renderer');
    });
    expect(desktopOnly, 'optionalDependencies hold only what main or the preload imports').toEqual([]);
  });

  it('has every desktop package installed: npm lets an optional package fail to build without a word', () => {
    const absent = Object.keys(packageJson.optionalDependencies).filter((name) => !existsSync(join(root, 'node_modules', name, 'package.json')));
    expect(absent, 'optional dependencies missing from node_modules (a failed native build?)').toEqual([]);
  });
});
