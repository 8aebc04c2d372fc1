import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files';

/**
 * No source file of src-* over this many lines (docs/testing.md): a longer one is split along its own section
 * comments (one resource, one component, one section a file), as functions are by tests/unit/function-size.test.ts.
 */
const MAX_FILE_LINES = 400;
const LAYERS = ['src-shared', 'src-server', 'src-main', 'src-preload', 'src-renderer'];

/** Files allowed over the budget, each with why. Splitting one removes its entry (the last test insists). */
const ALLOWED: Record<string, string> = {
  // Kept whole on purpose: one algorithm each, whose parts share private state and are read together.
  'src-server/features/audiences/engine/engine.ts': 'the audience engine: membership over the bitmaps, one invariant set',
  'src-server/features/audiences/engine/bitmap-index.ts': 'the bitmap index: its layout and its updates belong together',
};

const root = resolve(__dirname, '../..');

/** The lines of `source` (a trailing newline starts no line). */
export const lineCount = (source: string): number => source.replace(/\n$/, '').split('\n').length;

function oversized(): Map<string, number> {
  const found = new Map<string, number>();
  for (const layer of LAYERS)
    for (const file of sourceFiles(resolve(root, layer))) {
      const lines = lineCount(readFileSync(file, 'utf8'));
      if (lines > MAX_FILE_LINES) found.set(relative(root, file).replaceAll('\\', '/'), lines);
    }
  return found;
}

describe('file size', () => {
  const found = oversized();

  it(`keeps every src-* file within ${MAX_FILE_LINES} lines, the allowed ones aside`, () => {
    expect([...found].filter(([path]) => !(path in ALLOWED)).map(([path, lines]) => `${path} (${lines} lines)`)).toEqual([]);
  });

  it('allows only files that still need it', () => {
    expect(Object.keys(ALLOWED).filter((path) => !found.has(path))).toEqual([]);
  });

  it('counts lines as an editor does, so the budget can fail', () => {
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount(`${'x\n'.repeat(MAX_FILE_LINES + 1)}`) > MAX_FILE_LINES).toBe(true);
  });
});
