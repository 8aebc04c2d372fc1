import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { safeFolder, safeKey, UnsafeKeyError, type FolderContent, type StorageAdapter, type StoredObject } from './adapter';

/**
 * Files in a folder of the data directory. A write goes to a private incoming folder first and is renamed into
 * place once complete, so a reader never sees half a file and a failed upload leaves nothing.
 */
export class LocalStorage implements StorageAdapter {
  readonly kind = 'local' as const;
  private readonly root: string;
  private readonly incoming: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.incoming = join(dirname(this.root), `.${basename(this.root)}-incoming`);
  }

  /** The absolute path of a checked key, proven to lie under the root. */
  private pathOf(key: string): string {
    const path = resolve(this.root, ...key.split('/'));
    if (path !== this.root && !path.startsWith(this.root + sep)) throw new UnsafeKeyError('outside');
    return path;
  }

  private async describe(key: string, path: string): Promise<StoredObject | null> {
    const info = await stat(path).catch(() => null);
    return info?.isFile() ? { key, size: info.size, updatedAt: Math.floor(info.mtimeMs) } : null;
  }

  async put(key: string, body: Readable, _contentType: string): Promise<StoredObject> {
    const path = this.pathOf(safeKey(key));
    await mkdir(this.incoming, { recursive: true, mode: 0o700 });
    const temporary = join(this.incoming, randomUUID());
    // The file is created here, before any byte flows: a write stream given only a path opens (creates) it on its
    // own schedule, which could come after the clean-up below when the source fails at once, leaving it behind.
    const handle = await open(temporary, 'wx', 0o600).catch((error: unknown) => {
      body.destroy();
      throw error;
    });
    const output = handle.createWriteStream();
    try {
      await pipeline(body, output);
      // Folders of the user's alone, as the files renamed into them (0600).
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await rename(temporary, path);
    } catch (error) {
      body.destroy();
      output.destroy();
      // Closed before removal (Windows refuses to unlink an open file).
      if (!output.closed) await new Promise<void>((closed) => output.once('close', () => closed()));
      await rm(temporary, { force: true });
      throw error;
    }
    return (await this.describe(key, path))!;
  }

  async get(key: string) {
    const path = this.pathOf(safeKey(key));
    const object = await this.describe(key, path);
    if (!object) return null;
    return { body: createReadStream(path, { highWaterMark: 256 * 1024 }), object };
  }

  async head(key: string) {
    return this.describe(key, this.pathOf(safeKey(key)));
  }

  async list(folder: string): Promise<FolderContent> {
    const prefix = safeFolder(folder);
    const path = prefix ? this.pathOf(prefix) : this.root;
    const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
    const content: FolderContent = { folders: [], files: [] };
    for (const entry of entries) {
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) content.folders.push(key);
      else if (entry.isFile()) {
        const object = await this.describe(key, join(path, entry.name));
        if (object) content.files.push(object);
      }
    }
    content.folders.sort();
    content.files.sort((a, b) => a.key.localeCompare(b.key));
    return content;
  }

  async delete(key: string): Promise<boolean> {
    const path = this.pathOf(safeKey(key));
    if (!(await this.describe(key, path))) return false;
    await unlink(path);
    return true;
  }

  async close(): Promise<void> {}
}
