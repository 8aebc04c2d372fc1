import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWhenChanged, inputsHash, type CachedBuild } from '../../scripts/build-cache';

let root: string;
const built: string[] = [];

/** Two builds as `npm run web` has them: one reads `client` and `shared`, the other `server` and `shared`. */
function target(name: string, inputs: string[]): CachedBuild {
  return {
    name,
    inputs,
    marker: `out/${name}/index.js`,
    build: async () => {
      built.push(name);
      mkdirSync(join(root, 'out', name), { recursive: true });
      writeFileSync(join(root, `out/${name}/index.js`), `built ${built.length}`);
    },
  };
}
const client = () => target('client', ['client', 'shared', 'package-lock.json']);
const server = () => target('server', ['server', 'shared', 'package-lock.json']);
const stamps = () => join(root, 'out/.build-stamps');

async function buildBoth(): Promise<string[]> {
  built.length = 0;
  await buildWhenChanged(root, stamps(), client());
  await buildWhenChanged(root, stamps(), server());
  return [...built];
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'bo-build-cache-'));
  for (const folder of ['client', 'server', 'shared', 'client/node_modules/x']) mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, 'client/app.tsx'), 'export const app = 1;');
  writeFileSync(join(root, 'server/api.ts'), 'export const api = 1;');
  writeFileSync(join(root, 'shared/rules.ts'), 'export const rule = 1;');
  writeFileSync(join(root, 'package-lock.json'), '{}');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('builds kept by the hash of their inputs (npm run web)', () => {
  it('builds the first time, then not again while nothing changed', async () => {
    expect(await buildBoth()).toEqual(['client', 'server']);
    expect(await buildBoth()).toEqual([]);
  });

  it('rebuilds only the build whose inputs changed, and both for a shared file or the lockfile', async () => {
    await buildBoth();
    writeFileSync(join(root, 'client/app.tsx'), 'export const app = 2;');
    expect(await buildBoth()).toEqual(['client']);
    writeFileSync(join(root, 'server/new-route.ts'), 'export {};');
    expect(await buildBoth()).toEqual(['server']);
    writeFileSync(join(root, 'shared/rules.ts'), 'export const rule = 2;');
    expect(await buildBoth()).toEqual(['client', 'server']);
    writeFileSync(join(root, 'package-lock.json'), '{"v":2}');
    expect(await buildBoth()).toEqual(['client', 'server']);
  });

  it('reads contents, not times, and ignores node_modules', async () => {
    await buildBoth();
    const before = inputsHash(root, ['client']);
    utimesSync(join(root, 'client/app.tsx'), new Date(2030, 0, 1), new Date(2030, 0, 1));
    writeFileSync(join(root, 'client/node_modules/x/index.js'), 'changed');
    expect(inputsHash(root, ['client'])).toBe(before);
    expect(await buildBoth()).toEqual([]);
  });

  it('rebuilds an output that is missing or that another build rewrote since', async () => {
    await buildBoth();
    rmSync(join(root, 'out/client'), { recursive: true });
    expect(await buildBoth()).toEqual(['client']);
    writeFileSync(join(root, 'out/server/index.js'), 'written by npm run build from other sources');
    utimesSync(join(root, 'out/server/index.js'), new Date(2031, 0, 1), new Date(2031, 0, 1));
    expect(await buildBoth()).toEqual(['server']);
  });

  it('does not stamp a build that failed, so the next start tries again', async () => {
    const failing: CachedBuild = { ...client(), build: () => Promise.reject(new Error('syntax error')) };
    await expect(buildWhenChanged(root, stamps(), failing)).rejects.toThrow('syntax error');
    expect(await buildBoth()).toEqual(['client', 'server']);
  });
});
