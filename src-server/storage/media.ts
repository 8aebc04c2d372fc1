import type { FastifyReply } from 'fastify';
import type { StorageAdapter, StoredObject } from './adapter';
import { peek, servedType } from './sniff';

export const MEDIA_PREFIX = '/cdn/';

/** A key as a URL path: each segment encoded, the '/' kept. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** The stable URL of a stored object, with the `d` cache-busting parameter (its last write, epoch seconds). */
export function mediaUrl(publicUrl: string | undefined, object: StoredObject): string {
  return `${publicUrl ?? ''}${MEDIA_PREFIX}${encodeKey(object.key)}?d=${Math.floor(object.updatedAt / 1000)}`;
}

/**
 * The key a media URL names, when it is one of ours: root-relative `/cdn/...`, or under the configured public
 * address. Anything else (another site's image, a preview's blob:) is null.
 */
export function keyOfMediaUrl(url: string, publicUrl: string | undefined): string | null {
  let path: string;
  if (url.startsWith(MEDIA_PREFIX)) path = url;
  else if (publicUrl && url.startsWith(`${publicUrl}${MEDIA_PREFIX}`)) path = url.slice(publicUrl.length);
  else return null;
  const withoutQuery = path.slice(MEDIA_PREFIX.length).split(/[?#]/)[0];
  try {
    return decodeURIComponent(withoutQuery);
  } catch {
    return null;
  }
}

/** Types a browser renders inline harmlessly; anything else is offered as a download. */
const INLINE = /^(image\/(png|jpeg|gif|webp|tiff|x-icon|vnd\.microsoft\.icon|apng|bmp)|video\/|audio\/|application\/pdf|text\/plain)/;

const CACHE_CONTROL = { immutable: 'public, max-age=31536000, immutable', short: 'public, max-age=300', private: 'private, no-store' } as const;

/**
 * Sends a stored file: its type read from its bytes, never its name; nosniff; a sandboxing CSP so that nothing
 * it holds (an SVG's script, HTML) runs with any origin's rights, and SVG as an attachment when opened directly
 * (an <img> still shows it, scripts never run there). Cache: a year when the URL carries `d` ('immutable'), five
 * minutes without ('short'), none in shared caches for a client document behind its signed link ('private').
 */
export async function sendMedia(
  reply: FastifyReply,
  storage: StorageAdapter,
  key: string,
  cache: 'immutable' | 'short' | 'private',
): Promise<boolean> {
  const found = await storage.get(key);
  if (!found) return false;
  const { head, sniffed, body } = await peek(found.body);
  const type = servedType(head, sniffed);
  const name = key.split('/').pop() ?? 'file';
  reply.headers({
    'content-type': type,
    'content-length': found.object.size,
    'x-content-type-options': 'nosniff',
    'cache-control': CACHE_CONTROL[cache],
    'last-modified': new Date(found.object.updatedAt).toUTCString(),
    // Chromium's PDF viewer does not run in a sandboxed document; a PDF runs no script of ours either way.
    ...(type === 'application/pdf'
      ? {}
      : { 'content-security-policy': "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox" }),
    'cross-origin-resource-policy': 'cross-origin',
    'content-disposition': `${INLINE.test(type) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
  });
  reply.send(body);
  return true;
}
