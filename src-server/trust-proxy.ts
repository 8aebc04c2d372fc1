import { isIP } from 'node:net';

/**
 * Which reverse proxies are trusted to tell the client address (X-Forwarded-For), as Fastify's `trustProxy` takes
 * it: `false` (none: the socket's address is the client), a number of proxy hops in front of the server, or the
 * proxies' addresses (IPs or CIDR ranges). Never `true`: that trusts the left-most X-Forwarded-For entry, which
 * the client writes itself, so rotating it evades every per-address limit.
 */
export type TrustProxy = false | number | string[];

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || !isIP(address)) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (isIP(address) === 4 ? 32 : 128);
}

/**
 * Reads TRUST_PROXY: unset, empty, `false` or `0` → none; `N` → N hops (the N-th address from the right of
 * X-Forwarded-For, counting the socket, is the client); `10.0.0.1,10.0.0.0/8` → those proxies only.
 * `true` is read as 1 hop, with a warning: most deployments have exactly one proxy, and 1 hop is the safe
 * reading of "behind a proxy". Anything else is refused at start.
 */
export function parseTrustProxy(value: string | undefined, warn: (message: string) => void = () => undefined): TrustProxy {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') {
    warn('TRUST_PROXY=true is read as 1 proxy hop; set TRUST_PROXY to the number of proxy hops or to the proxies’ addresses');
    return 1;
  }
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isAddressOrRange(entry));
  if (!entries.length || invalid.length) {
    throw new Error(
      `TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses; not understood: ${invalid.join(', ') || text}`,
    );
  }
  return entries;
}

/**
 * Fastify's form of `trust`. A hop count becomes a function trusting the `hops` nearest addresses (the socket's
 * peer first): this Fastify reads a bare number as "trust nothing", because a hop count alone cannot tell a proxy
 * from a client connecting directly. So with a hop count the server must be reachable only through its proxies
 * (listen on a private address, or firewall it); the list of proxy addresses has no such condition.
 */
export function fastifyTrustProxy(trust: TrustProxy | undefined): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === undefined || trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
