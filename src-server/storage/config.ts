import { join, resolve } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { StorageAdapter } from './adapter';
import { LocalStorage } from './local';

export type StorageConfig = (
  | {
      kind: 'local';
      dir: string;
      /** One folder every instance mounts (compose.yaml's named volume, BACKOFFICE_STORAGE_SHARED=true): no warning. */
      shared?: boolean;
    }
  | { kind: 's3'; bucket: string; endpoint?: string; region?: string; credentials?: { accessKeyId: string; secretAccessKey: string } }
) & {
  /**
   * Start of the media URLs the API answers (e.g. https://cdn.example.com): a public address for what the app
   * platform reads. Absent: root-relative `/cdn/...` URLs, served by this server (the hosts pass them through).
   */
  publicUrl?: string;
};

/**
 * The storage of a server started from the environment: S3 when STORAGE_S3_BUCKET is set (endpoint, region and
 * the usual AWS credential variables), else a local folder — BACKOFFICE_STORAGE_DIR, or `<data folder>-storage`
 * beside the PGlite data folder, so that the embedded app works offline.
 */
export function storageConfigFromEnv(env: NodeJS.ProcessEnv, dataDir?: string): StorageConfig {
  const publicUrl = env.STORAGE_PUBLIC_URL?.replace(/\/+$/, '') || undefined;
  if (env.STORAGE_S3_BUCKET) {
    return {
      kind: 's3',
      bucket: env.STORAGE_S3_BUCKET,
      endpoint: env.STORAGE_S3_ENDPOINT || undefined,
      region: env.STORAGE_S3_REGION || env.AWS_REGION || undefined,
      publicUrl,
    };
  }
  // Beside the PGlite folder, never inside it (PGDATA is the database's own).
  const dir = env.BACKOFFICE_STORAGE_DIR ? resolve(env.BACKOFFICE_STORAGE_DIR) : `${resolve(dataDir ?? '.data/pglite')}-storage`;
  return { kind: 'local', dir, publicUrl, ...(env.BACKOFFICE_STORAGE_SHARED === 'true' ? { shared: true } : {}) };
}

/**
 * Builds the adapter; without a configuration (tests), a private temporary folder removed on close. The S3 client
 * is loaded only for an S3 storage: the desktop app ships without it (electron-builder.yml).
 */
export async function createStorage(config: StorageConfig | undefined): Promise<{ adapter: StorageAdapter; close(): Promise<void> }> {
  if (!config) {
    const dir = mkdtempSync(join(tmpdir(), 'backoffice-storage-'));
    const adapter = new LocalStorage(join(dir, 'files'));
    return { adapter, close: () => rm(dir, { recursive: true, force: true }) };
  }
  const adapter = config.kind === 's3' ? new (await import('./s3')).S3Storage(config) : new LocalStorage(config.dir);
  return { adapter, close: () => adapter.close() };
}
