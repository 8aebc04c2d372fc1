import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '@shared/features';
import { screenEntries, SCREENS } from '@shared/screens';

/**
 * A feature is found by the app only through its registries, one line per feature in each. These checks fail when
 * a feature's manifest exists but a registry does not list it (the feature would silently be missing).
 */
const root = resolve(__dirname, '../..');

/** The files `registry` imports (relative imports, resolved without extension), relative to the project root. */
function importsOf(registry: string): Set<string> {
  const file = join(root, registry);
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return new Set(
    importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) =>
        relative(root, resolve(dirname(file), specifier))
          .replaceAll('\\', '/')
          .replace(/\/index$/, ''),
      ),
  );
}

/** The modules of a folder (without extension), relative to the root; `except` are file names left out. */
function modulesIn(folder: string, except: string[] = []): string[] {
  return readdirSync(join(root, folder))
    .filter((name) => /\.tsx?$/.test(name) && !except.includes(name))
    .map((name) => `${folder}/${name.replace(/\.tsx?$/, '')}`);
}

const subfolders = (folder: string) => readdirSync(join(root, folder)).filter((name) => statSync(join(root, folder, name)).isDirectory());
const missingFrom = (registry: string, modules: string[]) => modules.filter((module) => !importsOf(registry).has(module));

describe('every feature manifest is in its registry', () => {
  it('shared feature manifests (screens, texts, upload formats): src-shared/features/index.ts', async () => {
    const modules = modulesIn('src-shared/features', ['index.ts', 'define.ts']);
    expect(modules.length).toBeGreaterThan(10);
    expect(missingFrom('src-shared/features/index.ts', modules)).toEqual([]);
    // Imported is not enough: each manifest a module exports is in the list.
    for (const module of modules) {
      const exported = Object.values(await import(join(root, `${module}.ts`)));
      for (const manifest of exported) expect(FEATURES, module).toContain(manifest);
    }
    const ids = FEATURES.map((feature) => feature.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('renderer screen manifests: src-renderer/app/screens.ts, and every feature folder with a page has one', () => {
    const folders = subfolders('src-renderer/features');
    const withPages = folders.filter((folder) => readdirSync(join(root, 'src-renderer/features', folder)).some((name) => /Page\.tsx$/.test(name)));
    expect(withPages.filter((folder) => !existsSync(join(root, 'src-renderer/features', folder, 'screens.ts')))).toEqual([]);
    const manifests = folders
      .filter((folder) => existsSync(join(root, 'src-renderer/features', folder, 'screens.ts')))
      .map((folder) => `src-renderer/features/${folder}/screens`);
    expect(missingFrom('src-renderer/app/screens.ts', manifests)).toEqual([]);
  });

  it('renderer screen manifests: every screen a folder declares is served (listed, not only imported)', async () => {
    const { SCREEN_COMPONENTS } = await import('../../src-renderer/app/screens');
    const folders = subfolders('src-renderer/features').filter((folder) => existsSync(join(root, 'src-renderer/features', folder, 'screens.ts')));
    for (const folder of folders) {
      const manifests = Object.values(await import(join(root, 'src-renderer/features', folder, 'screens.ts'))) as object[];
      for (const key of manifests.flatMap((manifest) => Object.keys(manifest))) expect(SCREEN_COMPONENTS[key], `${folder}: ${key}`).toBeDefined();
    }
  });

  it('server features: src-server/features/index.ts', () => {
    const folders = subfolders('src-server/features').map((folder) => `src-server/features/${folder}`);
    expect(missingFrom('src-server/features/index.ts', folders)).toEqual([]);
  });

  it('database tables: src-server/db/schema/index.ts (what drizzle-kit reads)', () => {
    expect(missingFrom('src-server/db/schema/index.ts', modulesIn('src-server/db/schema', ['index.ts']))).toEqual([]);
  });

  it('contract files with operations: src-shared/contract/index.ts', () => {
    const withOperations = modulesIn('src-shared/contract').filter(
      (module) => /defineOperation\(/.test(readFileSync(join(root, `${module}.ts`), 'utf8')) && !module.endsWith('/define'),
    );
    expect(withOperations.length).toBeGreaterThan(10);
    expect(missingFrom('src-shared/contract/index.ts', withOperations)).toEqual([]);
  });

  it('contract examples: tests/fixtures/contract-examples/index.ts', () => {
    expect(missingFrom('tests/fixtures/contract-examples/index.ts', modulesIn('tests/fixtures/contract-examples', ['index.ts', 'types.ts']))).toEqual(
      [],
    );
  });

  it('bench sections: bench/run.ts', () => {
    expect(missingFrom('bench/run.ts', modulesIn('bench/sections'))).toEqual([]);
  });

  it('message modules: in a feature manifest, or the shell texts of src-shared/messages/index.ts', () => {
    const reached = new Set([
      ...importsOf('src-shared/messages/index.ts'),
      ...modulesIn('src-shared/features').flatMap((module) => [...importsOf(`${module}.ts`)]),
    ]);
    const modules = modulesIn('src-shared/messages', ['index.ts']);
    expect(modules.filter((module) => !reached.has(module))).toEqual([]);
  });
});

describe('the screens the manifests declare', () => {
  it('have unique ids and paths, and a top-bar position each for those in the navigation', () => {
    const screens = screenEntries();
    expect(new Set(screens.map((screen) => screen.id)).size).toBe(screens.length);
    expect(new Set(screens.map((screen) => screen.path)).size).toBe(screens.length);
    const positions = SCREENS.flatMap((entry) => (entry.kind === 'link' ? [entry.position] : entry.nav ? [entry.nav.position] : []));
    expect(new Set(positions).size).toBe(positions.length);
  });
});
