import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Readable } from 'node:stream';
import { safeFolder, safeKey, type FolderContent, type StorageAdapter, type StoredObject } from './adapter';

export interface S3StorageOptions {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, an emulator); absent for AWS itself. Path-style addressing then. */
  endpoint?: string;
  region?: string;
  /** Absent: the SDK's usual chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, profiles, roles). */
  credentials?: S3ClientConfig['credentials'];
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return name === 'NotFound' || name === 'NoSuchKey' || status === 404;
}

/**
 * S3-compatible object storage (AWS SDK v3). Writes stream through a multipart upload (5 MB parts, two in
 * flight): the file is never whole in memory, and an aborted body aborts the multipart upload.
 */
export class S3Storage implements StorageAdapter {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Emulators and some S3-compatible stores do not know the newer default checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, contentType: string): Promise<StoredObject> {
    const checked = safeKey(key);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: checked, Body: body, ContentType: contentType },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      body.destroy();
      throw error;
    }
    return (await this.head(checked))!;
  }

  async get(key: string) {
    const checked = safeKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: checked }));
      return {
        body: answer.Body as Readable,
        object: { key: checked, size: answer.ContentLength ?? 0, updatedAt: answer.LastModified?.getTime() ?? 0 },
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    const checked = safeKey(key);
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checked }));
      return { key: checked, size: answer.ContentLength ?? 0, updatedAt: answer.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async list(folder: string): Promise<FolderContent> {
    const checked = safeFolder(folder);
    const prefix = checked ? `${checked}/` : '';
    const content: FolderContent = { folders: [], files: [] };
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }),
      );
      for (const common of page.CommonPrefixes ?? []) if (common.Prefix) content.folders.push(common.Prefix.replace(/\/$/, ''));
      for (const item of page.Contents ?? []) {
        if (!item.Key || item.Key === prefix) continue;
        content.files.push({ key: item.Key, size: item.Size ?? 0, updatedAt: item.LastModified?.getTime() ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    content.folders.sort();
    content.files.sort((a, b) => a.key.localeCompare(b.key));
    return content;
  }

  async delete(key: string): Promise<boolean> {
    const checked = safeKey(key);
    if (!(await this.head(checked))) return false;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checked }));
    return true;
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
