import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const builderConfig = readFileSync(fileURLToPath(new URL('../../electron-builder.yml', import.meta.url)), 'utf8');

/** The `electronFuses:` block of electron-builder.yml, as key → value (a flat block of booleans). */
function fuses(): Record<string, string> {
  const block = /^electronFuses:\n((?:[ \t]+.*\n?)+)/m.exec(builderConfig)?.[1] ?? '';
  return Object.fromEntries(block.split('\n').filter((line) => line.includes(':')).map((line) => line.trim().split(/:\s*/) as [string, string]));
}

describe('packaged app (electron-builder)', () => {
  it('flips the security fuses of the Electron binary (issue 13 item 15)', () => {
    expect(fuses()).toMatchObject({
      runAsNode: 'false',
      enableNodeOptionsEnvironmentVariable: 'false',
      enableNodeCliInspectArguments: 'false',
      enableEmbeddedAsarIntegrityValidation: 'true',
      onlyLoadAppFromAsar: 'true',
      enableCookieEncryption: 'true',
    });
  });
});
