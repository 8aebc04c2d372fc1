import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForbiddenAddress, urlParseMaxParses } from '../../src-server/features/adverts/url-parse';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * URL pre-fill against a local page: Open Graph and meta tags, relative URLs made absolute,
 * redirects limited, the download stopped at </head> or 256 KB, the 5 s time-out; and the SSRF refusals
 * without the test flag. Hostile pages: adverts-url-hostile.test.ts.
 */

let pages: Server;
let base: string;
let allowed: TestServer;
let guarded: TestServer;
let allowedToken: string;
let guardedToken: string;

const OG_PAGE = `<!doctype html><html><head>
  <meta charset="utf-8"><title>Titre de repli</title>
  <meta property="og:title" content="Nouveau traitement de l'HTA">
  <meta property="og:description" content="Une étude de phase III.">
  <meta name="author" content="Dr Martin">
  <meta property="og:image" content="/images/cover.png">
  <link rel="icon" href="/favicon.png">
</head><body>corps</body></html>`;

beforeAll(async () => {
  pages = createServer((request, response) => {
    const url = request.url ?? '/';
    if (url === '/og') return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(OG_PAGE);
    if (url === '/meta-only') {
      return response
        .writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' })
        .end(Buffer.from('<html><head><title>Café</title><meta name="description" content="Résumé"></head></html>', 'latin1'));
    }
    if (url.startsWith('/redirect/')) {
      const left = Number(url.split('/')[2]);
      return response.writeHead(302, { location: left > 0 ? `/redirect/${left - 1}` : '/og' }).end();
    }
    if (url === '/huge' || url === '/huge-headless' || url === '/split-head') {
      // Tags first, then an endless body: the server must stop at </head>, or after 256 KB without one.
      response.writeHead(200, { 'content-type': 'text/html' });
      response.on('error', () => undefined);
      const endless = (unit: string) => {
        const chunk = unit.repeat(Math.ceil((64 * 1024) / unit.length));
        const pump = () => {
          while (!response.destroyed && response.write(chunk));
          if (!response.destroyed) response.once('drain', pump);
        };
        pump();
      };
      if (url === '/huge') {
        response.write(`<html><head><meta property="og:title" content="Énorme"></head><body>`);
        return endless('x');
      }
      if (url === '/huge-headless') {
        response.write(`<html><head><meta property="og:title" content="Sans fin">`);
        return endless('x');
      }
      // `</he` and `AD >` in two writes, then endless nested <div>s: parsed, they would exceed the parse time limit.
      response.write(`<html><head><meta property="og:title" content="Coupé"></he`);
      return void setImmediate(() => {
        response.write('AD ><body>');
        endless('<div>');
      });
    }
    if (url === '/silent') return; // never answers
    if (url === '/favicon.png') return response.writeHead(200, { 'content-type': 'image/png' }).end('png');
    if (url === '/image') return response.writeHead(200, { 'content-type': 'image/png' }).end('png');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  allowed = await startTestServer({ config: { urlParseAllowPrivate: true, autopublishIntervalMs: 0 } });
  guarded = await startTestServer({ config: { urlParseAllowPrivate: false, autopublishIntervalMs: 0 } });
  allowedToken = (await allowed.signIn(['CSM'])).accessToken.value;
  guardedToken = (await guarded.signIn(['CONTENT_CREATOR'])).accessToken.value;
});
afterAll(async () => {
  pages.closeAllConnections();
  pages.close();
  await allowed?.close();
  await guarded?.close();
});

const parse = (server: TestServer, token: string, url: string) => server.request('GET', `/url/parse?url=${encodeURIComponent(url)}`, { token });

describe('parse workers', () => {
  it('runs half the cores at once, at least one', () => {
    expect([1, 2, 3, 4, 8, 16].map((cores) => urlParseMaxParses(cores))).toEqual([1, 1, 1, 2, 4, 8]);
  });
});

describe('GET /url/parse', () => {
  it('reads Open Graph and meta tags, with absolute image and logo', async () => {
    const response = await parse(allowed, allowedToken, `${base}/og`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      title: "Nouveau traitement de l'HTA",
      description: 'Une étude de phase III.',
      author: 'Dr Martin',
      image: `${base}/images/cover.png`,
      logo: `${base}/favicon.png`,
      // The test page serves the favicon only: its cover image cannot be uploaded (spec §8 warning).
      unavailable: ['image'],
    });
  });

  it('falls back on <title> and meta description, in the page charset', async () => {
    const response = await parse(allowed, allowedToken, `${base}/meta-only`);
    expect(response.body).toMatchObject({ title: 'Café', description: 'Résumé', image: null });
  });

  it('follows up to three redirects', async () => {
    expect((await parse(allowed, allowedToken, `${base}/redirect/2`)).body.title).toBe("Nouveau traitement de l'HTA");
    const tooMany = await parse(allowed, allowedToken, `${base}/redirect/5`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errorMsg).toBe("Impossible de récupérer les données depuis l'URL : trop de redirections");
  });

  it('stops reading an endless page at </head> (in any case, even split across chunks), or after 256 KB without one', async () => {
    for (const [page, title] of [
      ['/huge', 'Énorme'],
      ['/split-head', 'Coupé'],
      ['/huge-headless', 'Sans fin'],
    ]) {
      const response = await parse(allowed, allowedToken, `${base}${page}`);
      expect(response, page).toMatchObject({ status: 200, body: { title } });
    }
  });

  it('gives up on a page that never answers, after its time limit (5 s by default, shortened here)', async () => {
    // The limit is the server's setting: a server of its own with a short one, instead of a real 5 s wait.
    const impatient = await startTestServer({ config: { urlParseAllowPrivate: true, urlParseTimeoutMs: 300, autopublishIntervalMs: 0 } });
    try {
      const token = (await impatient.signIn(['CSM'])).accessToken.value;
      const started = Date.now();
      const response = await parse(impatient, token, `${base}/silent`);
      expect(response.status).toBe(400);
      expect(response.body.errorMsg).toBe("Impossible de récupérer les données depuis l'URL : La page ne répond pas");
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      await impatient.close();
    }
  });

  it('refuses what is not a web page, and a bad URL with the spec text', async () => {
    expect((await parse(allowed, allowedToken, `${base}/image`)).status).toBe(400);
    for (const bad of ['pas une url', 'ftp://example.org/x', 'javascript:alert(1)', 'http://user:pw@example.org/']) {
      const response = await parse(allowed, allowedToken, bad);
      expect(response, bad).toMatchObject({ status: 400, body: { errorMsg: "L'URL n'est pas valide" } });
    }
  });

  it('without the test flag, refuses loopback, private and link-local addresses, literal or resolved', async () => {
    for (const url of [
      `${base}/og`,
      'http://10.1.2.3/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://192.168.1.1/',
      `http://localhost:${new URL(base).port}/og`,
    ]) {
      const response = await parse(guarded, guardedToken, url);
      expect(response, url).toMatchObject({ status: 400, body: { errorMsg: "Cette adresse n'est pas autorisée" } });
    }
  });

  it('classifies addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '172.32.0.1'])
      expect(isForbiddenAddress(address), address).toBe(false);
  });
});
