import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import { MESSAGES } from '@shared/messages';
import { sendJson, type HostRequest } from './http';

export const MEDIA_PREFIX = '/cdn/';

/** What the API says about a media file that the browser must hear as is. */
const PASSED_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'last-modified',
  'content-disposition',
  'content-security-policy',
  'x-content-type-options',
];

/**
 * GET /cdn/…: the API's media route, passed through so that the page shows stored files from its own origin
 * (its CSP allows images and frames from 'self' only). The API's own protections travel with them: type from
 * the bytes, nosniff, the sandboxing CSP (an SVG's script never runs with this origin's rights), attachment for
 * what a browser should not render. Streamed, never buffered.
 */
/** The headers a passed-through media answer carries, from the API's (`get` reads one of them). */
export function mediaHeaders(get: (name: string) => string | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  for (const name of PASSED_HEADERS) {
    const value = get(name);
    if (value) headers[name] = value;
  }
  // The storage browser previews PDFs in a frame of the page: framing by this origin only.
  headers['x-frame-options'] = 'SAMEORIGIN';
  headers['content-security-policy'] = headers['content-security-policy']
    ? `${headers['content-security-policy']}; frame-ancestors 'self'`
    : "frame-ancestors 'self'";
  return headers;
}

export async function proxyMedia({ request: incoming, response, url, foreign }: HostRequest, apiUrl: string): Promise<void> {
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') return sendJson(response, 405, { errorMsg: MESSAGES.routeNotFound });
  if (foreign) return sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
  const base = new URL(apiUrl);
  const answer = await request(`${base.origin}${base.pathname.replace(/\/$/, '')}${url.pathname}${url.search}`, { method: incoming.method });
  const headers = mediaHeaders((name) => {
    const value = answer.headers[name];
    return typeof value === 'string' ? value : undefined;
  });
  response.writeHead(answer.statusCode, headers);
  if (incoming.method === 'HEAD') {
    await answer.body.dump();
    return void response.end();
  }
  await pipeline(answer.body, response);
}
