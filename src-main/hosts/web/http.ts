import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MESSAGES } from '@shared/messages';
import { CONTENT_SECURITY_POLICY } from '../../window-options';

/** Small HTTP helpers shared by the web host's modules. */

export function sameSecret(given: string | null | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Headers every answer of the host carries, page or JSON. */
export function securityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

/**
 * Every JSON answer (IPC results, errors) with the headers that keep it out of other sites' reach: not sniffed
 * as anything else, never framed, not readable cross-origin, never cached, no referrer.
 */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-resource-policy': 'same-origin',
  });
  response.end(JSON.stringify(body));
}

/** A percent-decoded path, or null when it is malformed (`/%E0%A4%A`): a 400, not a crash. */
export function decodePath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** A request body read whole, refused past `limit` bytes. */
export async function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error(MESSAGES.payloadTooLarge);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What every module of the host needs to know of a request once the host has looked at it. */
export interface HostRequest {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  /** Sent by another site (Origin or fetch metadata say so): refused by every endpoint but the page. */
  foreign: boolean;
  /** Proven to come from one of our pages (our Origin, or `Sec-Fetch-Site: same-origin`): required for IPC. */
  ownPage: boolean;
}
