import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Logger } from 'pino';
import type { IpcEvent, IpcEventPayload, SavedFile } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import type { RunningServer } from '../../src-server/server';
import type { HostFiles, IpcHandlers } from '../ipc/handlers';
import type { ApiClient } from '../services/api-client';
import { CONTENT_SECURITY_POLICY } from '../window-options';
import { appVersion } from '../app-version';
import { WebFileExchange } from './web-files';

export interface WebHostOptions {
  /** 0 for a random port; default WEB_PORT or 4173. */
  port?: number;
  host?: string;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** A team server; without it the API starts embedded on PGlite in dataDir. */
  apiUrl?: string;
  dataDir?: string;
  /** A migrated PGlite cluster to copy into a new dataDir (fast first start). */
  templateDir?: string;
  /** The SQL migrations of the embedded API; by default the folder beside the server's sources. */
  migrationsFolder?: string;
  settingsFile?: string;
  demo?: boolean;
  logger?: Logger;
  /** Called as soon as the page can be served, before the embedded API has finished starting. */
  onListening?: (url: string) => void;
}

export interface WebHost {
  url: string;
  secret: string;
  apiUrl: string;
  embedded: RunningServer | null;
  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json',
};

const MAX_IPC_BODY = 280 * 1024 * 1024;
const DOWNLOAD_TTL_MS = 5 * 60 * 1000;

function sameSecret(given: string | null | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

function securityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_IPC_BODY) throw new Error(MESSAGES.payloadTooLarge);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The product in a browser: serves the built renderer and the same IPC handlers as the Electron host, over
 * HTTP on loopback. Only pages it served itself (same origin, per-launch secret in the page) may call it.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  if (options.apiUrl && !/^https?:$/.test(URL.parse(options.apiUrl)?.protocol ?? '')) throw new Error(`Adresse d'API invalide : ${options.apiUrl}`);
  const secret = randomBytes(32).toString('base64url');
  const rendererDir = resolve(options.rendererDir);
  const indexTemplate = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const indexHtml = indexTemplate.replace('<head>', `<head>\n    <meta name="backoffice-web-secret" content="${secret}" />`);
  const exchange = new WebFileExchange();
  const streams = new Set<ServerResponse>();

  const emit = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const stream of streams) stream.write(frame);
  };

  let origin = '';
  const files: HostFiles = {
    async exportDestination(defaultName) {
      return exchange.exportDestination(defaultName);
    },
    async pickCsv(request) {
      return exchange.takeUpload(request.uploadId);
    },
    async savePdf(defaultName, bytes) {
      return exchange.offerBytes(defaultName, 'application/pdf', Buffer.from(bytes));
    },
  };

  async function serveStatic(request: IncomingMessage, response: ServerResponse, pathname: string): Promise<void> {
    securityHeaders(response);
    const candidate = normalize(join(rendererDir, decodeURIComponent(pathname)));
    if (candidate.startsWith(rendererDir + sep) && !candidate.endsWith(`${sep}index.html`)) {
      const info = await stat(candidate).catch(() => null);
      if (info?.isFile()) {
        response.writeHead(200, {
          'content-type': MIME[extname(candidate)] ?? 'application/octet-stream',
          'content-length': info.size,
          'cache-control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        if (request.method === 'HEAD') return void response.end();
        createReadStream(candidate).pipe(response);
        return;
      }
      if (extname(pathname)) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        return void response.end('Not found');
      }
    }
    // Single-page app: every route is the index.
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : indexHtml);
  }

  // IPC calls that arrive while the host is still wiring its services wait for them.
  let wireServices: (services: IpcServices) => void = () => undefined;
  const servicesWired = new Promise<IpcServices>((resolvePromise) => (wireServices = resolvePromise));

  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', origin || 'http://127.0.0.1');
      const requestOrigin = request.headers.origin;
      const fetchSite = request.headers['sec-fetch-site'];
      const foreign = (requestOrigin !== undefined && requestOrigin !== origin) || (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none');

      if (url.pathname.startsWith('/__ipc/')) {
        if (request.method !== 'POST') return sendJson(response, 405, { ok: false, status: 405, errorMsg: MESSAGES.invalidIpcCall });
        if (foreign || !sameSecret(request.headers['x-backoffice-secret'] as string | undefined, secret)) {
          return sendJson(response, 403, { ok: false, status: 403, errorMsg: MESSAGES.userNotAllowed });
        }
        if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
          return sendJson(response, 415, { ok: false, status: 415, errorMsg: MESSAGES.invalidIpcCall });
        }
        let payload: unknown;
        try {
          payload = (JSON.parse(await readBody(request)) as { payload?: unknown }).payload;
        } catch (error) {
          return sendJson(response, 400, { ok: false, status: 0, errorMsg: (error as Error).message === MESSAGES.payloadTooLarge ? MESSAGES.payloadTooLarge : MESSAGES.invalidJson });
        }
        const channel = decodeURIComponent(url.pathname.slice('/__ipc/'.length));
        const { handlers, dispatchIpc } = await servicesWired;
        return sendJson(response, 200, await dispatchIpc(handlers, channel, payload));
      }

      if (url.pathname === '/__events') {
        if (foreign || !sameSecret(url.searchParams.get('secret'), secret)) return sendJson(response, 403, { errorMsg: MESSAGES.userNotAllowed });
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        response.write(': connected\n\n');
        streams.add(response);
        request.on('close', () => streams.delete(response));
        return;
      }

      if (url.pathname === '/__upload') {
        // A file picked in the page for an import, streamed to the host's private folder (same checks as IPC).
        if (request.method !== 'POST') return sendJson(response, 405, { ok: false, status: 405, errorMsg: MESSAGES.invalidIpcCall });
        if (foreign || !sameSecret(request.headers['x-backoffice-secret'] as string | undefined, secret)) {
          return sendJson(response, 403, { ok: false, status: 403, errorMsg: MESSAGES.userNotAllowed });
        }
        try {
          return sendJson(response, 200, { ok: true, data: await exchange.receiveUpload(request, url.searchParams.get('name') ?? '') });
        } catch (error) {
          return sendJson(response, 413, { ok: false, status: 413, errorMsg: (error as Error).message });
        }
      }

      if (url.pathname.startsWith('/__download/')) {
        if (foreign) return sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
        securityHeaders(response);
        if (!(await exchange.serveDownload(url.pathname.slice('/__download/'.length), response))) return sendJson(response, 404, { errorMsg: MESSAGES.routeNotFound });
        return;
      }

      if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { errorMsg: MESSAGES.routeNotFound });
      await serveStatic(request, response, url.pathname);
    } catch (error) {
      options.logger?.error({ err: error }, 'web host error');
      if (!response.headersSent) sendJson(response, 500, { ok: false, status: 500, errorMsg: MESSAGES.genericError });
      else response.destroy();
    }
  });

  const port = options.port ?? Number(process.env.WEB_PORT ?? 4173);
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? '127.0.0.1', () => resolvePromise());
  });
  const address = server.address() as AddressInfo;
  origin = `http://${address.address}:${address.port}`;

  // The page is served from here on; the embedded API boots meanwhile and API calls wait for it, so the login
  // form is usable before the database is (the user is typing while it finishes).
  options.onListening?.(origin);
  const api = startApi(options, origin);
  api.catch(() => undefined);
  // The IPC services (undici, zod, papaparse) load after the page is served: it needs none of them to show.
  const [{ createIpcHandlers, dispatchIpc }, { ApiClient, apiAddress }, { createSessionVault }, { createJsonSettingsStore }] = await Promise.all([
    import('../ipc/handlers'),
    import('../services/api-client'),
    import('../services/session-vault'),
    import('../services/settings'),
  ]);
  const settings = createJsonSettingsStore(options.settingsFile ?? join(options.dataDir ?? '.data/web', 'settings.json'));
  if (options.apiUrl) settings.set({ apiUrl: options.apiUrl });
  const vault = await createSessionVault({
    service: 'Back-office (web)',
    // The embedded server's port changes at every start: its sessions are keyed by its data folder instead.
    account: options.apiUrl ? new URL(options.apiUrl).origin : `embedded:${resolve(options.dataDir ?? '.data/web')}`,
  });
  const apiBaseUrl = apiAddress(() => settings.get().apiUrl, () => api);
  const client: ApiClient = new ApiClient({ baseUrl: apiBaseUrl, vault, onSessionExpired: (reason) => emit('session:expired', { reason }) });
  const handlers = createIpcHandlers({
    api: client,
    settings,
    files,
    emit,
    appInfo: async () => {
      const running = await api.catch(() => null);
      return { version: appVersion(), apiUrl: settings.get().apiUrl || running?.url || '', databaseKind: running?.databaseKind ?? 'remote', host: 'web' };
    },
  });
  wireServices({ handlers, dispatchIpc });

  const close = async () => {
    for (const stream of streams) stream.end();
    streams.clear();
    server.closeAllConnections();
    await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    await client.close();
    await exchange.close();
    await (await api.catch(() => null))?.embedded?.close();
  };
  let running: Awaited<typeof api>;
  try {
    running = await api;
  } catch (error) {
    await close();
    throw error;
  }

  return { url: origin, secret, apiUrl: running.url, embedded: running.embedded, emit, close };
}

interface IpcServices {
  handlers: IpcHandlers;
  dispatchIpc: typeof import('../ipc/handlers').dispatchIpc;
}

/** The team server named in the options, or the embedded one started on PGlite. */
async function startApi(options: WebHostOptions, origin: string): Promise<{ url: string; databaseKind: string; embedded: RunningServer | null }> {
  if (options.apiUrl) return { url: options.apiUrl, databaseKind: 'remote', embedded: null };
  // Loaded here, not at the top: the page is served while the server's modules load.
  const { startServer } = await import('../../src-server/server');
  const embedded = await startServer({
    port: 0,
    dataDir: options.dataDir,
    templateDir: options.templateDir,
    migrationsFolder: options.migrationsFolder,
    demo: options.demo ?? true,
    logger: options.logger,
    // Reset links open in this browser app.
    config: { resetLinkBase: origin },
  });
  return { url: embedded.url, databaseKind: embedded.database.kind, embedded };
}
