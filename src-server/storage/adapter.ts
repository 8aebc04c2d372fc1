import type { Readable } from 'node:stream';
import { checkFolder, checkKey } from '@shared/rules/storage';

/** One stored object as every adapter describes it. */
export interface StoredObject {
  key: string;
  size: number;
  /** Epoch milliseconds of the last write. */
  updatedAt: number;
}

export interface FolderContent {
  /** Direct sub-folders, by full key. */
  folders: string[];
  files: StoredObject[];
}

/**
 * Where files live: a local folder (default, offline desktop) or S3-compatible object storage (team servers).
 * Every method checks its key again, whatever the caller did: an adapter never reaches outside its root.
 */
export interface StorageAdapter {
  readonly kind: 'local' | 's3';
  /** Streams `body` to `key` (replacing it); a failed or aborted body leaves nothing behind. */
  put(key: string, body: Readable, contentType: string): Promise<StoredObject>;
  /** The object's bytes as a stream, or null when there is none. */
  get(key: string): Promise<{ body: Readable; object: StoredObject } | null>;
  head(key: string): Promise<StoredObject | null>;
  /** One level of a folder ('' is the root). */
  list(folder: string): Promise<FolderContent>;
  /** False when there was nothing to delete. */
  delete(key: string): Promise<boolean>;
  close(): Promise<void>;
}

/** A key that fails checkKey reached an adapter: refused, never cleaned up into another key. */
export class UnsafeKeyError extends Error {
  constructor(readonly reason: string) {
    super(`unsafe storage key (${reason})`);
    this.name = 'UnsafeKeyError';
  }
}

export function safeKey(key: string): string {
  const checked = checkKey(key);
  if (!checked.ok) throw new UnsafeKeyError(checked.reason);
  return checked.key;
}

export function safeFolder(folder: string): string {
  const checked = checkFolder(folder);
  if (!checked.ok) throw new UnsafeKeyError(checked.reason);
  return checked.key;
}
