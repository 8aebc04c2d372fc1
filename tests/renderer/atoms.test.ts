import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const features = fileURLToPath(new URL('../../src-renderer/features/', import.meta.url));

/** A Jotai atom: an object with a read function and a string key (`atom<n>`). */
function isAtom(value: unknown): value is { debugLabel?: string; toString(): string } {
  return typeof value === 'object' && value !== null && typeof (value as { read?: unknown }).read === 'function' && /^atom\d+/.test(String(value));
}

describe('Jotai state (one concern per atom, each named)', () => {
  it('gives every exported atom of every feature, of lib/ and of app/, a debugLabel of the form feature.name', async () => {
    const modules: Record<string, Record<string, unknown>> = {
      'lib/modal': await import('../../src-renderer/lib/modal'),
      'lib/notices': await import('../../src-renderer/lib/notices'),
      'lib/session': await import('../../src-renderer/lib/session'),
      'lib/bridge': await import('../../src-renderer/lib/bridge'),
      'app/settings': await import('../../src-renderer/app/settings'),
    };
    for (const feature of readdirSync(features)) {
      if (readdirSync(`${features}${feature}`).includes('atoms.ts'))
        modules[feature] = await import(`../../src-renderer/features/${feature}/atoms.ts`);
      // A feature with several concerns keeps them in atoms/<concern>.ts.
      if (readdirSync(`${features}${feature}`).includes('atoms')) {
        for (const file of readdirSync(`${features}${feature}/atoms`))
          modules[`${feature}/${file}`] = await import(`../../src-renderer/features/${feature}/atoms/${file}`);
      }
    }
    const atoms = Object.entries(modules).flatMap(([module, exports]) =>
      Object.entries(exports)
        .filter(([, value]) => isAtom(value))
        .map(([name, value]) => ({ module, name, value })),
    );
    expect(atoms.length).toBeGreaterThan(10);
    const unlabelled = atoms.filter(({ value }) => !/^[a-z]+(\.[A-Za-z]+)+$/.test((value as { debugLabel?: string }).debugLabel ?? ''));
    expect(unlabelled.map(({ module, name }) => `${module}:${name}`)).toEqual([]);
    const labels = atoms.map(({ value }) => (value as { debugLabel: string }).debugLabel);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
