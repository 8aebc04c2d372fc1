import { randomUUID } from 'node:crypto';
import type { SavedFile } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { securityHeaders, sendJson, type HostRequest } from './http';

const DOWNLOAD_TTL_MS = 5 * 60 * 1000;
export const DOWNLOAD_PREFIX = '/__download/';

/** Files main "saves" on the web host: offered once at an unguessable URL the web bridge then opens. */
export function createDownloads() {
  const downloads = new Map<string, { name: string; contentType: string; bytes: Buffer; expires: number }>();
  return {
    offer(name: string, contentType: string, bytes: Buffer): SavedFile {
      const now = Date.now();
      for (const [id, entry] of downloads) if (entry.expires < now) downloads.delete(id);
      const id = randomUUID();
      downloads.set(id, { name, contentType, bytes, expires: now + DOWNLOAD_TTL_MS });
      return { savedAs: name, downloadUrl: `${DOWNLOAD_PREFIX}${id}` };
    },
    serve({ response, url, foreign }: HostRequest): void {
      const id = url.pathname.slice(DOWNLOAD_PREFIX.length);
      const entry = downloads.get(id);
      downloads.delete(id);
      if (!entry || entry.expires < Date.now() || foreign) return sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
      securityHeaders(response);
      response.writeHead(200, {
        'content-type': entry.contentType,
        'content-length': entry.bytes.length,
        'content-disposition': `attachment; filename="${entry.name.replace(/[^\w.\- ]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(entry.name)}`,
        'cache-control': 'no-store',
      });
      response.end(entry.bytes);
    },
  };
}
