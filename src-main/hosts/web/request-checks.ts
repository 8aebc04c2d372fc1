import type { IncomingHttpHeaders } from 'node:http';

/**
 * Who may talk to the web host, as pure rules. The host listens on loopback; a page of another site may still
 * reach it (a form, a fetch) or pose as it (DNS rebinding: evil.example resolving to 127.0.0.1).
 */

/** The Host headers of the listening address: 127.0.0.1, localhost and [::1] at its port. */
export function listeningHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** DNS rebinding: a request naming any other host (or none) is not for us, whatever address it reached. */
export function isListeningHost(hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  return hostHeader !== undefined && allowed.has(hostHeader.toLowerCase());
}

/** The origins our own pages have, one per listening host name. */
export function ownOrigins(port: number): Set<string> {
  return new Set([...listeningHosts(port)].map((host) => `http://${host}`));
}

/**
 * Sent by another site: its Origin is not ours, or the browser's fetch metadata says cross-site. A browser
 * navigating by hand sends `Sec-Fetch-Site: none`, which is ours.
 */
export function isForeign(headers: IncomingHttpHeaders, origins: ReadonlySet<string>): boolean {
  const origin = headers.origin;
  const site = headers['sec-fetch-site'];
  return (origin !== undefined && !origins.has(origin)) || (site !== undefined && site !== 'same-origin' && site !== 'none');
}

/**
 * An IPC call must prove it comes from one of our pages: an Origin of ours, or — browsers omit Origin on some
 * same-origin requests — `Sec-Fetch-Site: same-origin`. A request with neither (a script outside a browser, an
 * old client) is refused.
 */
export function isOwnPageCall(headers: IncomingHttpHeaders, origins: ReadonlySet<string>): boolean {
  if (isForeign(headers, origins)) return false;
  return (headers.origin !== undefined && origins.has(headers.origin)) || headers['sec-fetch-site'] === 'same-origin';
}
