import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

export interface MultipartBody {
  body: AsyncIterable<Uint8Array>;
  contentType: string;
  /** Exact byte length, so the request carries Content-Length (no chunked encoding). */
  length: number;
  /** Bytes of the file itself. */
  fileSize: number;
}

function quoted(value: string): string {
  // RFC 7578: names in quoted strings; quotes and line breaks are percent-encoded as browsers do.
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * A multipart/form-data body of text fields then one file read from disk in 256 kB chunks: never whole in
 * memory. `onProgress` hears the file bytes handed to the connection; `signal` stops the reading.
 */
export async function multipartFromFile(
  file: { fileName: string; contentType?: string } & ({ path: string } | { bytes: Uint8Array }),
  fields: Record<string, string>,
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => void } = {},
): Promise<MultipartBody> {
  const size = 'path' in file ? (await stat(file.path)).size : file.bytes.length;
  const boundary = `----backoffice${randomBytes(16).toString('hex')}`;
  let preamble = '';
  for (const [name, value] of Object.entries(fields)) {
    preamble += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`;
  }
  preamble += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.fileName)}"\r\n`;
  preamble += `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  const head = Buffer.from(preamble, 'utf8');
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8');
  async function* body() {
    yield head;
    let done = 0;
    options.onProgress?.(0, size);
    const stream = 'path' in file ? createReadStream(file.path, { highWaterMark: 256 * 1024, signal: options.signal }) : [Buffer.from(file.bytes)];
    for await (const chunk of stream) {
      yield chunk as Buffer;
      done += (chunk as Buffer).length;
      options.onProgress?.(done, size);
    }
    yield tail;
  }
  return { body: body(), contentType: `multipart/form-data; boundary=${boundary}`, length: head.length + size + tail.length, fileSize: size };
}
