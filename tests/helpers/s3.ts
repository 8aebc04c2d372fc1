import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships no types of its own version; what the tests use of it is declared here.
import S3rver from 's3rver';

export interface S3Emulator {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

/** An S3-compatible server in this process (s3rver), on a loopback port, with one empty bucket. */
export async function startS3Emulator(bucket = 'backoffice-test'): Promise<S3Emulator> {
  const directory = mkdtempSync(join(tmpdir(), 'bo-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const address = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket,
    // s3rver's fixed test credentials (it checks signatures with them).
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
