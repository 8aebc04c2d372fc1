import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const builderConfig = readFileSync(root('electron-builder.yml'), 'utf8');
const packageJson = JSON.parse(readFileSync(root('package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The `electronFuses:` block of electron-builder.yml, as key → value (a flat block of booleans). */
function fuses(): Record<string, string> {
  const block = /^electronFuses:\n((?:[ \t]+.*\n?)+)/m.exec(builderConfig)?.[1] ?? '';
  return Object.fromEntries(
    block
      .split('\n')
      .filter((line) => line.includes(':'))
      .map((line) => line.trim().split(/:\s*/) as [string, string]),
  );
}

/** The `asarUnpack:` list of electron-builder.yml (comments left out). */
function asarUnpack(): string[] {
  const block = /^asarUnpack:\n((?:[ \t]+.*\n?)+)/m.exec(builderConfig)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => /^\s*-\s*'?([^']+?)'?\s*$/.exec(line)?.[1])
    .filter((entry): entry is string => Boolean(entry));
}

/** Production dependencies that compile a native addon (a binding.gyp): the packaged app must load their .node. */
// The app's production packages: dependencies and the desktop's own, optionalDependencies (keytar among them).
const nativeDependencies = [...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.optionalDependencies)].filter((name) =>
  existsSync(root(`node_modules/${name}/binding.gyp`)),
);

describe('packaged app (electron-builder)', () => {
  it('flips the security fuses of the Electron binary', () => {
    expect(fuses()).toMatchObject({
      runAsNode: 'false',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
      enableCookieEncryption: 'true',
    });
  });

  it('ships the native modules outside the asar archive, rebuilt for Electron (keytar, roaring)', () => {
    // A native addon left inside the asar cannot be dlopen()ed: the embedded API would fail at start.
    expect(nativeDependencies).toEqual(expect.arrayContaining(['keytar', 'roaring']));
    for (const name of nativeDependencies) expect(asarUnpack(), name).toContain(`**/node_modules/${name}/**`);
    // Rebuilt against Electron's ABI at packaging time (the Node build in node_modules would not load).
    expect(builderConfig).toMatch(/^npmRebuild: true$/m);
    // …from source: keytar's prebuilt binaries are not always downloadable (archived upstream).
    expect(builderConfig).toMatch(/^buildDependenciesFromSource: true$/m);
    // The audience engine needs roaring in the packaged app: a production dependency, not a dev one.
    expect(packageJson.dependencies.roaring).toBeDefined();
    expect(packageJson.devDependencies.roaring).toBeUndefined();
  });
});
