import { chmodSync, fsyncSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/**
 * PGlite on disk as it ships is not durable: it starts PostgreSQL with `-F` (fsync off), and Emscripten's
 * Node filesystem has no fsync operation, so even with fsync on, PostgreSQL's syncs would do nothing. A commit
 * then survives a crash of the process (the write reached the OS) but not a crash of the OS or a power cut.
 *
 * Here PostgreSQL runs with fsync on and WAL flushed by fsync (Emscripten maps fdatasync to nothing, fsync to
 * the filesystem's fsync operation), and the Node filesystem gets that operation: one real fsync per commit.
 * Measured on this project's CI machine: 200 single-row commits 115 ms without, 150 ms with.
 */

/** PGlite's default start parameters (0.5.x) without `-F`, and with WAL flushed by fsync. */
export const DURABLE_START_PARAMS = [
  '--single',
  '-O',
  '-j',
  '-c',
  'search_path=public',
  '-c',
  'exit_on_error=false',
  '-c',
  'log_checkpoints=false',
  '-c',
  'max_worker_processes=0',
  '-c',
  'max_parallel_workers=0',
  '-c',
  'max_parallel_workers_per_gather=0',
  '-c',
  'io_method=sync',
  '-c',
  'max_parallel_maintenance_workers=0',
  '-c',
  'fsync=on',
  '-c',
  'wal_sync_method=fsync',
];

interface EmscriptenStream {
  nfd: number;
}

type Chmod = (target: unknown, mode: number) => void;

/** The parts of Emscripten's NODEFS patched here (Emscripten 4, as bundled by PGlite 0.5). */
interface EmscriptenNodeFS {
  stream_ops: Record<string, unknown>;
  doSetAttr(target: unknown, node: unknown, attr: unknown, chmod: Chmod, ...rest: unknown[]): void;
}

/** NodeFS whose files can be fsynced: PostgreSQL's fsync reaches the disk. */
export class DurableNodeFS extends NodeFS {
  /** fsync calls made so far: what the tests and the benchmark read. */
  syncCount = 0;

  override async init(...args: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    const result = await super.init(...args);
    const preRun = result.emscriptenOpts.preRun ?? [];
    preRun.push((module: { NODEFS: EmscriptenNodeFS }) => {
      const nodefs = module.NODEFS;
      nodefs.stream_ops.fsync = (stream: EmscriptenStream) => {
        fsyncSync(stream.nfd);
        this.syncCount += 1;
        return 0;
      };
      // PostgreSQL asks for 0666 files and Emscripten applies it with an explicit chmod, past the umask:
      // keep every permission bit for the user alone.
      const setAttributes = nodefs.doSetAttr.bind(nodefs);
      nodefs.doSetAttr = (target, node, attr, chmod, ...rest) =>
        setAttributes(target, node, attr, (path: unknown, mode: number) => chmod(path, mode & ~0o077), ...rest);
    });
    return { ...result, emscriptenOpts: { ...result.emscriptenOpts, preRun } };
  }
}

/** Options of a PGlite that keeps its data in `dataDir` durably. */
export function durablePGliteOptions(dataDir: string): PGliteOptions & { fs: DurableNodeFS } {
  return { fs: new DurableNodeFS(dataDir), startParams: DURABLE_START_PARAMS };
}

/** New files of this process (database, settings, keys) are readable by the user only. */
export function restrictNewFiles(): void {
  if (process.platform !== 'win32') process.umask(0o077);
}

/**
 * Files of the embedded database hold the JWT signing key and password hashes: readable by the user only.
 * New files get it from the umask (set by the caller at start); this repairs a folder made before that.
 * Windows keeps them in the user's profile folder, whose ACL already excludes other users.
 */
export function makePrivateTree(path: string): void {
  if (process.platform === 'win32') return;
  let info;
  try {
    info = statSync(path);
  } catch {
    return;
  }
  if (info.isDirectory()) {
    if ((info.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) makePrivateTree(join(path, name));
  } else if (info.isFile() && (info.mode & 0o077) !== 0) {
    chmodSync(path, info.mode & 0o700);
  }
}
