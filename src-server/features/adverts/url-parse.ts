import { TextDecoder } from 'node:util';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { Agent, request, type Dispatcher } from 'undici';
import { MESSAGES } from '@shared/messages';
import { HttpError } from '../../errors';
import { HtmlParseError, htmlParser } from './html-parse';

/**
 * URL pre-fill (docs/content.md): the server fetches the page and reads title, description, author, image and logo
 * from its Open Graph and meta tags (open-graph-scraper on the HTML we fetched ourselves, so that every
 * connection goes through our checks). Limits: 5 s for the download, three redirects. Private, loopback,
 * link-local and other non-public addresses are refused after DNS resolution — at connection time, so a name that
 * resolves differently the second time cannot slip through — unless BACKOFFICE_URL_PARSE_ALLOW_PRIVATE=true
 * (tests of a local page only).
 *
 * Any signed-in account may call it, so a hostile page must not cost the others (docs/security.md): the download stops at
 * `</head>` or 256 KB, whichever comes first (the tags are in the head); the HTML is parsed in a worker thread with
 * a 2 s limit (html-parse.ts), never on the main thread; one call at a time per account and two parses at a time
 * per server, beyond which the answer is an immediate 429.
 */

export const URL_PARSE_TIMEOUT_MS = 5_000;
export const URL_PARSE_MAX_BYTES = 256 * 1024;
export const URL_PARSE_MAX_REDIRECTS = 3;
export const URL_PARSE_TIME_LIMIT_MS = 2_000;
/**
 * Parses at once: half the cores, at least one, so that a burst of pre-fills leaves the other half to the API (the
 * workers also run at a lower priority, WORKER_NICE in html-parse.ts).
 */
export function urlParseMaxParses(cores = availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}
/** The parse worker's heap: cheerio's tree of 256 KB of markup fits many times over. */
export const URL_PARSE_WORKER_MEMORY_MB = 128;
/** Seconds a caller told 429 is asked to wait (a call lasts at most the download, the parse and the image checks). */
const RETRY_AFTER_S = 5;

/** `</head` followed by `>` or a space, in any case: where the download stops. */
const HEAD_END = /<\/head[\s>]/i;

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is one a server-side fetch must not reach (IPv4-mapped IPv6 checked as IPv4). */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

const fetchFailed = (reason: string) => new HttpError(400, `${MESSAGES.urlFetchFailed}${reason}`);

/** Parses and checks what the user pasted: an absolute http(s) URL, else 'L'URL n'est pas valide'. */
export function parseUserUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new HttpError(400, MESSAGES.invalidUrl, {}, 'url');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) {
    throw new HttpError(400, MESSAGES.invalidUrl, {}, 'url');
  }
  return url;
}

export interface PageInfo {
  title: string;
  description: string;
  author: string;
  image: string | null;
  logo: string | null;
  /** The image and logo found whose address answers no image (spec §8: 'L'image de ce site ne peut être uploadée'). */
  unavailable?: ('image' | 'logo')[];
}

/** DNS resolution whose every answer must be public (unless `allowPrivate`); used by the agent for every connection. */
function safeLookup(allowPrivate: boolean) {
  return (hostname: string, lookupOptions: object, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, []);
      if (!allowPrivate && addresses.some((entry) => isForbiddenAddress(entry.address))) {
        return callback(Object.assign(new Error(`refused address for ${hostname}`), { code: 'EFORBIDDENADDRESS' }), []);
      }
      const all = (lookupOptions as { all?: boolean }).all;
      if (all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The page's HTML up to `</head>` (or its first bytes), decoded with the charset its content type names. */
async function readHtmlHead(body: Dispatcher.ResponseData['body'], type: string, signal: AbortSignal): Promise<string> {
  let page = Buffer.alloc(0);
  try {
    for await (const chunk of body) {
      // Searched as latin1 (one char a byte) from a few bytes back, so a `</head>` cut across chunks is found.
      const from = Math.max(0, page.length - 6);
      page = Buffer.concat([page, chunk as Buffer]);
      const end = headEnd(page, from);
      // The tags are in the head: what follows `</head>`, or the first 256 KB, is never downloaded.
      if (end >= 0) {
        page = page.subarray(0, end);
        break;
      }
      if (page.length >= URL_PARSE_MAX_BYTES) {
        page = page.subarray(0, URL_PARSE_MAX_BYTES);
        break;
      }
    }
  } catch (error) {
    throw translate(error, signal);
  } finally {
    // Aborts the rest of the download (the connection is closed, not drained).
    body.on('error', () => undefined);
    body.destroy();
  }
  const charset = /charset=["']?([\w-]+)/i.exec(type)?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(page);
}

/** What the page's tags say, its addresses made absolute; an image or logo that answers no image is named unavailable. */
async function pageInfo(
  result: Awaited<ReturnType<ReturnType<typeof htmlParser>['parse']>>,
  pageUrl: URL,
  answersImage: (address: string) => Promise<boolean>,
): Promise<PageInfo> {
  const absolute = (value: unknown) => {
    if (typeof value !== 'string' || !value.trim()) return null;
    try {
      const resolved = new URL(value.trim(), pageUrl);
      return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.toString() : null;
    } catch {
      return null;
    }
  };
  const record = result as Record<string, unknown>;
  const firstUrl = (list: unknown) => (Array.isArray(list) && list.length ? (list[0] as { url?: string }).url : undefined);
  const text_ = (...values: unknown[]) => String(values.find((value) => typeof value === 'string' && value.trim()) ?? '').trim();
  const image = absolute(firstUrl(result.ogImage) ?? firstUrl(result.twitterImage));
  const logo = absolute(record.ogLogo ?? result.favicon ?? '/favicon.ico');
  const [imageOk, logoOk] = await Promise.all([image ? answersImage(image) : true, logo ? answersImage(logo) : true]);
  const unavailable = [...(imageOk ? [] : ['image' as const]), ...(logoOk ? [] : ['logo' as const])];
  return {
    title: text_(result.ogTitle, result.twitterTitle, result.dcTitle),
    description: text_(result.ogDescription, result.twitterDescription, result.dcDescription),
    author: text_(record.metaAuthor, record.author, result.articleAuthor, result.ogSiteName),
    image,
    logo,
    ...(unavailable.length ? { unavailable } : {}),
  };
}

export function urlParser(options: { allowPrivate: boolean; timeoutMs?: number; timeLimitMs?: number; maxParses?: number }) {
  const timeoutMs = options.timeoutMs ?? URL_PARSE_TIMEOUT_MS;
  const parser = htmlParser({
    maxParses: options.maxParses ?? urlParseMaxParses(),
    timeLimitMs: options.timeLimitMs ?? URL_PARSE_TIME_LIMIT_MS,
    maxMemoryMb: URL_PARSE_WORKER_MEMORY_MB,
    idleMs: 60_000,
  });
  /** Accounts whose call is under way: one at a time each. */
  const busyAccounts = new Set<number>();
  const agent = new Agent({
    connect: { lookup: safeLookup(options.allowPrivate) as never, timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  function checkLiteral(url: URL) {
    // A literal address never goes through the lookup: check it here.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && isForbiddenAddress(host)) throw new HttpError(400, MESSAGES.urlRefused, {}, 'url');
  }

  async function fetchPage(start: URL, signal: AbortSignal): Promise<{ html: string; url: URL }> {
    let url = start;
    for (let redirects = 0; ; redirects += 1) {
      checkLiteral(url);
      let response;
      try {
        response = await request(url, {
          dispatcher: agent,
          method: 'GET',
          signal,
          headers: { 'user-agent': 'Mozilla/5.0 (compatible; BackofficeUrlPreview/1.0)', accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1' },
        });
      } catch (error) {
        throw translate(error, signal);
      }
      if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
        await response.body.dump().catch(() => undefined);
        if (redirects >= URL_PARSE_MAX_REDIRECTS) throw fetchFailed('trop de redirections');
        url = parseUserUrl(new URL(String(response.headers.location), url).toString());
        continue;
      }
      if (response.statusCode >= 400) {
        await response.body.dump().catch(() => undefined);
        throw fetchFailed(`HTTP ${response.statusCode}`);
      }
      const type = String(response.headers['content-type'] ?? 'text/html');
      if (!/html|xml/i.test(type)) {
        await response.body.dump().catch(() => undefined);
        throw fetchFailed("la page n'est pas une page web");
      }
      return { html: await readHtmlHead(response.body, type, signal), url };
    }
  }

  /** Whether an address answers an image (same agent and checks as the page, redirects limited); never throws. */
  async function answersImage(address: string): Promise<boolean> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      let url = parseUserUrl(address);
      for (let redirects = 0; redirects <= URL_PARSE_MAX_REDIRECTS; redirects += 1) {
        checkLiteral(url);
        const response = await request(url, {
          dispatcher: agent,
          method: 'GET',
          signal,
          headers: { 'user-agent': 'Mozilla/5.0 (compatible; BackofficeUrlPreview/1.0)', accept: 'image/*' },
        });
        // Only the answer's head matters: the body is dropped unread (its abort is expected, not an error).
        response.body.on('error', () => undefined);
        response.body.destroy();
        if (response.statusCode >= 300 && response.statusCode < 400 && response.headers.location) {
          url = parseUserUrl(new URL(String(response.headers.location), url).toString());
          continue;
        }
        return response.statusCode < 300 && /^image\//i.test(String(response.headers['content-type'] ?? ''));
      }
      return false;
    } catch {
      return false;
    }
  }

  /** The page's tags, parsed off the main thread; the parser's limits as the user's French answers. */
  async function tags(html: string) {
    try {
      return await parser.parse(html);
    } catch (error) {
      if (!(error instanceof HtmlParseError)) throw error;
      if (error.reason === 'busy') throw new HttpError(429, MESSAGES.urlParseBusy, { 'retry-after': String(RETRY_AFTER_S) });
      if (error.reason === 'tooSlow') throw fetchFailed(MESSAGES.urlParseTooSlow);
      if (error.reason === 'tooLarge') throw fetchFailed(MESSAGES.urlPageTooLarge);
      throw fetchFailed(MESSAGES.urlParseFailed);
    }
  }

  async function parsePage(text: string): Promise<PageInfo> {
    const url = parseUserUrl(text);
    const signal = AbortSignal.timeout(timeoutMs);
    const page = await fetchPage(url, signal);
    const result = await tags(page.html);
    return pageInfo(result, page.url, answersImage);
  }

  return {
    /** The page's tags for `accountId`, which has no other call under way (else 429 at once). */
    async parse(text: string, accountId: number): Promise<PageInfo> {
      if (busyAccounts.has(accountId)) throw new HttpError(429, MESSAGES.urlParseBusyForAccount, { 'retry-after': String(RETRY_AFTER_S) });
      busyAccounts.add(accountId);
      try {
        return await parsePage(text);
      } finally {
        busyAccounts.delete(accountId);
      }
    },
    close: async () => {
      await parser.close();
      await agent.close();
    },
  };
}

/** Where the HTML to parse ends: just after `</head…>` found at or after `from`, else -1. */
function headEnd(page: Buffer, from: number): number {
  const text = page.toString('latin1', from);
  const match = HEAD_END.exec(text);
  if (!match) return -1;
  const close = text.indexOf('>', match.index);
  return from + (close >= 0 ? close + 1 : text.length);
}

function translate(error: unknown, signal: AbortSignal): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'EFORBIDDENADDRESS') return new HttpError(400, MESSAGES.urlRefused, {}, 'url');
  if (signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return fetchFailed(MESSAGES.urlTimeout);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return fetchFailed('adresse introuvable');
  return fetchFailed((error as Error).message ?? String(error));
}
