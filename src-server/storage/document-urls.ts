import { timingSafeEqual } from 'node:crypto';
import { DOCUMENTS_ROOT } from '@shared/rules/storage';
import { MEDIA_PREFIX, encodeKey } from './media';

/**
 * Client documents of the storage browser (everything under assets/clients) are not public: `/cdn/…` serves them
 * only with a signature, HMAC-SHA256 of the key and an expiry under a key derived from the server's JWT secret,
 * which the server adds whenever it lists or returns a document. The renderer just opens the link (a preview
 * frame, "Ouvrir"); the web host and the desktop app pass `/cdn/…` through with its query, and the desktop app
 * hands the same link, at the API's address, to the browser. Media meant for the app (adverts, libraries, BAT
 * captures) keep their stable public URLs.
 */
export const DOCUMENT_URL_TTL_MS = 10 * 60 * 1000;
const PURPOSE = 'storage-document-url';

export interface UrlSigner {
  mac(purpose: string, data: string): Buffer;
}

/**
 * Whether a key names a client document. The first two segments are compared as a case-insensitive file
 * system would read them (Windows and macOS, where the desktop app's local storage lives): case folded, trailing
 * dots and spaces and any ':stream' suffix dropped, so `assets/CLIENTS./x` cannot reach the same file unsigned.
 */
export function isDocumentKey(key: string): boolean {
  const [first, second] = key.split('/').map((segment) =>
    segment
      .toLowerCase()
      .split(':')[0]
      .replace(/[. ]+$/, ''),
  );
  const [rootFirst, rootSecond] = DOCUMENTS_ROOT.split('/');
  return first === rootFirst && second === rootSecond;
}

function signature(signer: UrlSigner, key: string, expires: number): string {
  return signer.mac(PURPOSE, `${key}\n${expires}`).toString('base64url');
}

/** `/cdn/<key>?expires=<epoch s>&signature=<base64url>`, valid for DOCUMENT_URL_TTL_MS from `now`. */
export function signedDocumentUrl(signer: UrlSigner, key: string, now: Date): string {
  const expires = Math.floor((now.getTime() + DOCUMENT_URL_TTL_MS) / 1000);
  return `${MEDIA_PREFIX}${encodeKey(key)}?expires=${expires}&signature=${signature(signer, key, expires)}`;
}

export type DocumentUrlCheck = 'valid' | 'missing' | 'invalid' | 'expired';

/** Checks the query of a document request: the signature first (a changed expiry is invalid), then the time. */
export function checkDocumentUrl(signer: UrlSigner, key: string, query: { expires?: string; signature?: string }, now: Date): DocumentUrlCheck {
  if (!query.expires && !query.signature) return 'missing';
  if (!query.expires || !/^\d{1,12}$/.test(query.expires) || !query.signature || !/^[A-Za-z0-9_-]{43}$/.test(query.signature)) return 'invalid';
  const expires = Number(query.expires);
  const expected = Buffer.from(signature(signer, key, expires));
  const given = Buffer.from(query.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return now.getTime() < expires * 1000 ? 'valid' : 'expired';
}
