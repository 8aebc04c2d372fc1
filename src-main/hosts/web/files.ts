import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { SavedFile } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import type { ExportDestination, PickedFile } from '../../services/host-files';
import { sameSecret, securityHeaders, sendJson, type HostRequest } from './http';

export const DOWNLOAD_PREFIX = '/__download/';
export const UPLOAD_PATH = '/__upload';

/** Files the page may upload for an import; bigger ones are refused while they arrive. */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024;
const TTL_MS = 30 * 60 * 1000;

interface Download {
  name: string;
  contentType: string;
  expires: number;
  /** Streamed from disk, then deleted (exports); or small bytes in memory (PDF proofs). */
  path?: string;
  bytes?: Buffer;
}

class TooLargeError extends Error {}

/**
 * The web host's side of files: what Electron does with native dialogs, a browser does with uploads and
 * downloads. Uploads stream to a private folder of the host (never whole in memory) and are named by an id the
 * page passes to 'files:previewCsv'; exports are written there and offered once as a download streamed from disk.
 */
export class WebFileExchange {
  private readonly uploads = new Map<string, PickedFile & { expires: number }>();
  private readonly downloads = new Map<string, Download>();

  private folderPath: string | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** A private folder of this launch (0700), made on first use and removed when the host closes. */
  private get folder(): string {
    this.folderPath ??= mkdtempSync(join(tmpdir(), 'backoffice-web-'));
    return this.folderPath;
  }

  /** Streams the request body into a new file; answers the id that names it. */
  async receiveUpload(request: IncomingMessage, fileName: string): Promise<{ uploadId: string }> {
    this.forgetExpired();
    const uploadId = randomUUID();
    const path = join(this.folder, `upload-${uploadId}.csv`);
    let size = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(size > MAX_UPLOAD_BYTES ? new TooLargeError(MESSAGES.payloadTooLarge) : null, chunk);
      },
    });
    try {
      await pipeline(request, limit, createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      await rm(path, { force: true });
      throw error instanceof TooLargeError ? error : new Error(MESSAGES.genericError);
    }
    this.uploads.set(uploadId, { path, fileName: basename(fileName) || 'liste.csv', temporary: true, expires: this.now() + TTL_MS });
    return { uploadId };
  }

  /** The upload named by the page, once: the import owns (and later deletes) its file. */
  takeUpload(uploadId: string | undefined): PickedFile | null {
    if (!uploadId) return null;
    const upload = this.uploads.get(uploadId);
    this.uploads.delete(uploadId);
    if (!upload || upload.expires < this.now()) return null;
    return { path: upload.path, fileName: upload.fileName, temporary: true };
  }

  /** An export is written to a private file, then offered once as a download. */
  exportDestination(defaultName: string): ExportDestination {
    const path = join(this.folder, `export-${randomUUID()}.csv`);
    return {
      path,
      finish: () => this.offer({ name: defaultName, contentType: 'text/csv; charset=utf-8', path }),
      abandon: () => void rm(path, { force: true }),
    };
  }

  offerBytes(name: string, contentType: string, bytes: Buffer): SavedFile {
    return this.offer({ name, contentType, bytes });
  }

  private offer(download: Omit<Download, 'expires'>): SavedFile {
    this.forgetExpired();
    const id = randomUUID();
    this.downloads.set(id, { ...download, expires: this.now() + TTL_MS });
    return { savedAs: download.name, downloadUrl: `${DOWNLOAD_PREFIX}${id}` };
  }

  /** Sends a download once (then forgets it and deletes its file); false when unknown or expired. */
  async serveDownload(id: string, response: ServerResponse): Promise<boolean> {
    const entry = this.downloads.get(id);
    this.downloads.delete(id);
    if (!entry || entry.expires < this.now()) {
      if (entry?.path) await rm(entry.path, { force: true });
      return false;
    }
    const length = entry.path ? (await stat(entry.path)).size : entry.bytes!.length;
    response.writeHead(200, {
      'content-type': entry.contentType,
      'content-length': length,
      'content-disposition': `attachment; filename="${entry.name.replace(/[^\w.\- ]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(entry.name)}`,
      'cache-control': 'no-store',
    });
    if (!entry.path) {
      response.end(entry.bytes);
      return true;
    }
    try {
      await pipeline(createReadStream(entry.path), response);
    } finally {
      await rm(entry.path, { force: true });
    }
    return true;
  }

  /** POST /__upload?name=…: the same checks as IPC (same origin, the page's secret), then the body to disk. */
  async serveUpload({ request, response, url, foreign }: HostRequest, secret: string): Promise<void> {
    if (request.method !== 'POST') return sendJson(response, 405, { ok: false, status: 405, errorMsg: MESSAGES.invalidIpcCall });
    if (foreign || !sameSecret(request.headers['x-backoffice-secret'] as string | undefined, secret)) {
      return sendJson(response, 403, { ok: false, status: 403, errorMsg: MESSAGES.userNotAllowed });
    }
    try {
      sendJson(response, 200, { ok: true, data: await this.receiveUpload(request, url.searchParams.get('name') ?? '') });
    } catch (error) {
      sendJson(response, 413, { ok: false, status: 413, errorMsg: (error as Error).message });
    }
  }

  /** GET /__download/<id>: the file once, to the same origin only. */
  async serve({ response, url, foreign }: HostRequest): Promise<void> {
    if (foreign) return sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
    securityHeaders(response);
    if (!(await this.serveDownload(url.pathname.slice(DOWNLOAD_PREFIX.length), response)))
      sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [id, upload] of this.uploads) {
      if (upload.expires >= now) continue;
      this.uploads.delete(id);
      void rm(upload.path, { force: true });
    }
    for (const [id, download] of this.downloads) {
      if (download.expires >= now) continue;
      this.downloads.delete(id);
      if (download.path) void rm(download.path, { force: true });
    }
  }

  async close(): Promise<void> {
    if (this.folderPath) await rm(this.folderPath, { recursive: true, force: true });
  }
}
