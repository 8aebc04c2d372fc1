import { describe, expect, it } from 'vitest';
import { packedModules } from '../../scripts/packed-modules';

describe('node_modules packed into the desktop app (electron-builder.yml)', () => {
  const modules = packedModules();
  const name = (key: string) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);

  it('leaves out the S3 client and the API reference, and nothing the app needs', () => {
    const packed = [...modules.packed.keys()].map(name);
    expect(packed.filter((entry) => /^@aws-sdk\/|^@smithy\/|^@fastify\/swagger/.test(entry))).toEqual([]);
    // Every package the kept dependencies reach is packed: an exclusion that took one would break the app at start.
    const missing = [...modules.all].filter(([key, path]) => modules.reachable.has(path) && !modules.packed.has(key)).map(([key]) => key);
    expect(missing).toEqual([]);
  });

  it('packs no renderer package (React, Lexical…): Vite bundled them into out/renderer', () => {
    const packed = new Set([...modules.packed.keys()].map(name));
    for (const renderer of ['react', 'react-dom', 'lexical', 'jotai', 'lucide-react', 'flag-icons', 'react-router-dom'])
      expect(packed.has(renderer), renderer).toBe(false);
    console.log(`packed node_modules: ${(modules.bytes(modules.packed.values()) / 1024 / 1024).toFixed(1)} MB in ${modules.packed.size} packages`);
  });
});
