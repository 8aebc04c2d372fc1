import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Folders never part of a build's inputs, wherever they sit. */
const SKIPPED = new Set(['node_modules', 'out', '.data', 'test-results', '.git']);

function* filesUnder(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    if (SKIPPED.has(entry.name)) continue;
    yield* filesUnder(join(path, entry.name));
  }
}

/**
 * SHA-256 over the path and content of every file under `inputs` (files or folders, relative to `root`): what a
 * build reads. Content, not modification times, so a checkout or a copy that touches every file still matches.
 */
export function inputsHash(root: string, inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const input of [...inputs].sort()) {
    for (const file of filesUnder(join(root, input))) {
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

interface Stamp {
  inputs: string;
  /** The output's marker file as the build left it: another build writing the output (`npm run build`) changes it. */
  markerModified: number;
}

function readStamp(stampFile: string): Stamp | null {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8')) as Stamp;
  } catch {
    return null;
  }
}

export interface CachedBuild {
  name: string;
  /** Files and folders the build reads, relative to `root`. */
  inputs: readonly string[];
  /** A file the build writes last (e.g. index.html): the output is complete and ours when it has the stamped time. */
  marker: string;
  build: () => Promise<void>;
}

/**
 * Runs `build` only when its inputs changed since the build the stamp records, or its output is missing or was
 * rewritten by another build since. Returns whether it built.
 */
export async function buildWhenChanged(root: string, stampDir: string, target: CachedBuild): Promise<boolean> {
  const stampFile = join(stampDir, `${target.name}.json`);
  const inputs = inputsHash(root, target.inputs);
  const stamp = readStamp(stampFile);
  const marker = join(root, target.marker);
  if (stamp?.inputs === inputs && existsSync(marker) && statSync(marker).mtimeMs === stamp.markerModified) return false;
  await target.build();
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, JSON.stringify({ inputs, markerModified: statSync(marker).mtimeMs } satisfies Stamp));
  return true;
}
