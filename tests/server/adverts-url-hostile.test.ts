import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlParseMaxParses } from '../../src-server/features/adverts/url-parse';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * URL pre-fill against hostile pages: the HTML is parsed off the main thread, with a time limit,
 * on what precedes `</head>` (256 KB at most), a parse at a time per account and two per server. While a page of
 * 2 MB of nested <div>s is parsed for one account, another account's calls are answered at once.
 */

const NESTED_DIVS = 2 * 1024 * 1024;
const META_CALLS = 20;
/** Generous for a loaded two-core machine; the figure aimed at is 50 ms (bench/sections/url-parse.ts). */
const META_P95_LIMIT_MS = 250;

let pages: Server;
let base: string;
let server: TestServer;

/** Each request to the page server, announced when it arrives and when its answer is over (read or cut). */
const arrivals: { url: string; done: Promise<void> }[] = [];
const arrivalWaiters: (() => void)[] = [];
const arrived = (count: number) =>
  new Promise<void>((resolve) => {
    const check = () => (arrivals.length >= count ? resolve() : arrivalWaiters.push(check));
    check();
  });

/** Writes `total` bytes of `unit` repeated (Infinity: forever), as fast as the client reads, until done or cut. */
function pump(response: ServerResponse, unit: string, total: number) {
  const chunk = unit.repeat(Math.ceil((64 * 1024) / unit.length));
  let sent = 0;
  const next = () => {
    while (!response.destroyed && sent < total) {
      sent += chunk.length;
      if (!response.write(chunk)) return void response.once('drain', next);
    }
    if (!response.destroyed) response.end();
  };
  next();
}

const BIG_HEAD = `<script>var filler = "${'x'.repeat(200 * 1024)}";</script><style>${'.a{color:red}'.repeat(2000)}</style>`;

beforeAll(async () => {
  pages = createServer((request, response) => {
    const url = request.url ?? '/';
    arrivals.push({ url, done: new Promise((resolve) => response.once('close', () => resolve())) });
    arrivalWaiters.splice(0).forEach((check) => check());
    response.on('error', () => undefined);
    if (url.startsWith('/nested')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.write('<!doctype html><html><head><title>Piège</title>');
      return pump(response, '<div>', NESTED_DIVS);
    }
    if (url === '/big-head') {
      // The tags after 200 KB of inline script and style, then `</HEAD>` and a body that never ends: only a reader
      // that stops at `</head>` (or at its 256 KB) ever answers, and the page server sees the connection cut.
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.write(`<!doctype html><html><HEAD><meta charset="utf-8">${BIG_HEAD}`);
      response.write(
        `<meta property="og:title" content="Après un gros en-tête"><meta property="og:description" content="Lu quand même"></HEAD ><body>`,
      );
      return pump(response, '<div>', Infinity);
    }
    if (url === '/og') {
      return response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><meta property="og:title" content="Normal"></head><body></body></html>');
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  server = await startTestServer({ config: { urlParseAllowPrivate: true, autopublishIntervalMs: 0 } });
});
afterAll(async () => {
  pages?.closeAllConnections();
  pages?.close();
  await server?.close();
});

const parse = (token: string, url: string) => server.request('GET', `/url/parse?url=${encodeURIComponent(url)}`, { token });

function p95(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1];
}

describe('GET /url/parse on hostile pages', () => {
  it('parses 2 MB of nested <div>s off the main thread: another account is answered at once, the page gets a French error', async () => {
    const sales = (await server.signIn(['SALES'])).accessToken.value;
    const csm = (await server.signIn(['CSM'])).accessToken.value;
    const meta = async () => {
      const started = performance.now();
      const response = await server.request('GET', '/meta', { token: csm });
      expect(response.status).toBe(200);
      return performance.now() - started;
    };
    // The same calls with no parse under way: on a loaded machine the limit below is three times their p95 if more.
    const baseline: number[] = [];
    for (let i = 0; i < META_CALLS; i++) baseline.push(await meta());
    const limit = Math.max(META_P95_LIMIT_MS, 3 * p95(baseline));

    const seen = arrivals.length;
    let hostileAnswered = false;
    const hostile = parse(sales, `${base}/nested`).finally(() => (hostileAnswered = true));
    // From the page's request on: its download (cut at 256 KB), then its parse.
    await arrived(seen + 1);
    let downloadOver = false;
    void arrivals[seen].done.then(() => (downloadOver = true));
    const latencies: number[] = [];
    let duringParse = 0;
    for (let i = 0; i < META_CALLS; i++) {
      if (downloadOver && !hostileAnswered) duringParse += 1;
      latencies.push(await meta());
    }
    const parsingAfterCalls = !hostileAnswered;
    const answer = await hostile;
    console.log(
      `GET /meta during the parse of 2 MB of nested <div>s: p95 ${p95(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms` +
        ` (without a parse: p95 ${p95(baseline).toFixed(1)} ms)`,
    );
    expect(duringParse, 'some /meta calls were made while the page was parsed').toBeGreaterThan(0);
    expect(parsingAfterCalls, 'the /meta calls were over before the page was').toBe(true);
    expect(p95(latencies)).toBeLessThanOrEqual(limit);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(4 * limit);
    expect(answer).toMatchObject({
      status: 400,
      body: { errorMsg: "Impossible de récupérer les données depuis l'URL : la page est trop longue à analyser" },
    });

    // The parser is still there for the next page.
    expect((await parse(sales, `${base}/og`)).body).toMatchObject({ title: 'Normal' });
  }, 60_000);

  it('reads the tags after a big head, up to </head> whatever its case, and stops the download there', async () => {
    const token = (await server.signIn(['CONTENT_CREATOR'])).accessToken.value;
    const seen = arrivals.length;
    // No time bound (a busy machine is slow, not wrong): the body never ends, so an answer at all, and the
    // download cut, prove the reader stopped at `</head>`; a server that kept reading never answers (test time-out).
    const response = await parse(token, `${base}/big-head`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ title: 'Après un gros en-tête', description: 'Lu quand même' });
    expect(arrivals[seen].url).toBe('/big-head');
    await arrivals[seen].done;
  });

  it('one parse at a time per account: a second call answers 429 at once', async () => {
    const token = (await server.signIn(['SALES'])).accessToken.value;
    const seen = arrivals.length;
    let firstAnswered = false;
    const first = parse(token, `${base}/nested?account`).finally(() => (firstAnswered = true));
    await arrived(seen + 1);
    const second = await parse(token, `${base}/og`);
    expect(second).toMatchObject({
      status: 429,
      body: { errorMsg: "Une analyse d'URL est déjà en cours pour votre compte : réessayez quand elle sera terminée" },
    });
    // At once: answered while the first parse still runs, not after it.
    expect(firstAnswered).toBe(false);
    expect(second.headers.get('retry-after')).toBeTruthy();
    expect((await first).status).toBe(400);
    // Once the first is answered, the account parses again.
    expect((await parse(token, `${base}/og`)).status).toBe(200);
  }, 30_000);

  it('half the cores parse at once per server (at least one): the next account answers 429 until one is over', async () => {
    const slots = urlParseMaxParses();
    const roles = ['CSM', 'SALES', 'CONTENT_CREATOR', 'CSM_LEAD', 'CONTENT_CREATOR_LEAD'] as const;
    const accounts = await Promise.all(Array.from({ length: slots + 1 }, (_, index) => server.signIn([roles[index % roles.length]!])));
    const waiting = accounts.at(-1)!;
    const seen = arrivals.length;
    const running = accounts.slice(0, slots).map((account, index) => parse(account.accessToken.value, `${base}/nested?slot${index}`));
    await arrived(seen + slots);
    await Promise.all(arrivals.slice(seen, seen + slots).map((arrival) => arrival.done));
    const refused = await parse(waiting.accessToken.value, `${base}/og`);
    expect(refused).toMatchObject({ status: 429, body: { errorMsg: "Trop d'analyses d'URL en cours : réessayez dans quelques secondes" } });
    for (const answer of running) expect((await answer).status).toBe(400);
    expect((await parse(waiting.accessToken.value, `${base}/og`)).body).toMatchObject({ title: 'Normal' });
  }, 30_000);
});
