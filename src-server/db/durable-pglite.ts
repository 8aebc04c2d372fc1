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
type Mknod = (parent: unknown, name: string, mode: number, device: number) => unknown;

/** The parts of Emscripten's NODEFS patched here (Emscripten 4, as bundled by PGlite 0.5). */
interface EmscriptenNodeFS {
  stream_ops: Record<string, unknown>;
  node_ops: { mknod: Mknod };
  doSetAttr(target: unknown, node: unknown, attr: unknown, chmod: Chmod, ...rest: unknown[]): void;
}

/** NodeFS whose files can be fsynced: PostgreSQL's fsync reaches the disk. */
export class DurableNodeFS extends NodeFS {
  /** fsync calls made so far: what the tests and the benchmark read. */
  syncCount = 0;

  /**
   * Permission bits never given to what PostgreSQL makes: with `privateFiles`, every file and folder is the user's
   * alone (0600, 0700); otherwise no one else may write (0644, 0755).
   */
  private readonly withheld: number;

  constructor(dataDir: string, privateFiles = true) {
    super(dataDir);
    this.withheld = privateFiles ? 0o077 : 0o022;
  }

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
      // The modes are set on the database's own files, not through the process umask, which would also apply to
      // whatever else the process writes (a build's renderer and preload). Emscripten creates a file or folder
      // with the mode PostgreSQL asks for (mknod), and PostgreSQL asks for 0666 files with an explicit chmod,
      // past any umask: withhold the same bits from both.
      const withheld = this.withheld;
      const mknod = nodefs.node_ops.mknod.bind(nodefs.node_ops);
      nodefs.node_ops.mknod = (parent, name, mode, device) => mknod(parent, name, mode & ~withheld, device);
      const setAttributes = nodefs.doSetAttr.bind(nodefs);
      nodefs.doSetAttr = (target, node, attr, chmod, ...rest) =>
        setAttributes(target, node, attr, (path: unknown, mode: number) => chmod(path, mode & ~withheld), ...rest);
    });
    return { ...result, emscriptenOpts: { ...result.emscriptenOpts, preRun } };
  }
}

/**
 * Options of a PGlite that keeps its data in `dataDir` durably; its files private to the user unless
 * `privateFiles` is false (the schema-only template shipped with the app, which every user reads).
 */
export function durablePGliteOptions(dataDir: string, privateFiles = true, sharedBuffers?: `${number}MB`): PGliteOptions & { fs: DurableNodeFS } {
  const startParams = sharedBuffers ? [...DURABLE_START_PARAMS, '-c', `shared_buffers=${sharedBuffers}`] : DURABLE_START_PARAMS;
  return { fs: new DurableNodeFS(dataDir, privateFiles), startParams };
}

/**
 * Files of the embedded database hold the JWT signing key and password hashes: readable by the user only.
 * New files get it from DurableNodeFS; this repairs a folder made before that, and a copy of the template.
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

/**
 * The shipped template holds schema only and is read by whoever runs the app: every folder 0755 and file 0644
 * (PostgreSQL makes some of its files 0600 on its own).
 */
export function makeReadableTree(path: string): void {
  if (process.platform === 'win32') return;
  const info = statSync(path);
  if (info.isDirectory()) {
    chmodSync(path, 0o755);
    for (const name of readdirSync(path)) makeReadableTree(join(path, name));
  } else if (info.isFile()) {
    chmodSync(path, 0o644);
  }
}
