import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { IpcEvent, IpcEventPayload } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import type { RunningServer, StartOptions } from '../../src-server/server';
import type { OutboxMail } from '../../src-server/server';
import type { HostFiles } from '../services/host-files';
import type { MainServices } from '../main-services';
import { appVersion } from '../app-version';
import { createBrowserSessions } from './web/browser-sessions';
import { DOWNLOAD_PREFIX, UPLOAD_PATH, WebFileExchange } from './web/files';
import { createEventStreams } from './web/events';
import { MEDIA_PREFIX, proxyMedia } from './web/media';
import { sendJson, type HostRequest } from './web/http';
import { createIpcOverHttp, IPC_PREFIX } from './web/ipc-http';
import { isForeign, isListeningHost, isOwnPageCall, listeningHosts, ownOrigins } from './web/request-checks';
import { openFolderWithSystem } from './web/open-folder';
import { createStaticFiles } from './web/static-files';

export interface WebHostOptions {
  /** 0 for a random port; default WEB_PORT or 4173. */
  port?: number;
  host?: string;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** Development (`npm run web:dev`): read the renderer again when a watch build rewrote its index. */
  rendererReload?: boolean;
  /** A team server; without it the API starts embedded on PGlite in dataDir. */
  apiUrl?: string;
  dataDir?: string;
  /** A migrated PGlite cluster to copy into a new dataDir (fast first start). */
  templateDir?: string;
  /** The SQL migrations of the embedded API; by default the folder beside the server's sources. */
  migrationsFolder?: string;
  settingsFile?: string;
  demo?: boolean;
  /**
   * With the demo, the app-user population and sample audiences, seeded in the background while the page already
   * works (default: with the demo, full size). Tests pass false, or a small size when they need audiences.
   */
  demoPopulation?: StartOptions['demoPopulation'];
  logger?: Logger;
  /** The folder `logger` writes its files into (About page, diagnostics); absent: the logs go to the console. */
  logDir?: string;
  /** Called as soon as the page can be served, before the embedded API has finished starting. */
  onListening?: (url: string) => void;
  /** A browser session ends after this long without a request (default 8 hours). */
  sessionIdleMs?: number;
  /** Every mail the embedded API keeps in its outbox (reset links): the host prints it. */
  onOutboxMail?: (mail: OutboxMail) => void;
  /**
   * The first visit chooses where to work (the team's server or this computer, as the desktop app does), and the
   * choice can be changed later; the embedded API starts only once chosen. Ignored with `apiUrl`.
   */
  chooseServer?: boolean;
}

export interface WebHost {
  url: string;
  secret: string;
  apiUrl: string;
  embedded: RunningServer | null;
  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void;
  close(): Promise<void>;
}

/**
 * The product in a browser: serves the built renderer and the same IPC handlers as the Electron host, over
 * HTTP on loopback. Only pages it served itself (same origin, per-launch secret in the page) may call it.
 * Its parts: static files, IPC over HTTP, events (SSE) and downloads, each in hosts/web/.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  if (options.apiUrl && !/^https?:$/.test(URL.parse(options.apiUrl)?.protocol ?? ''))
    throw new Error(`${MESSAGES.invalidApiAddress} : ${options.apiUrl}`);
  const secret = randomBytes(32).toString('base64url');
  // Without the demo workspace, the embedded API's first administrator is created in the page (/setup), with a
  // token of this launch that only this host knows.
  const setupToken = options.apiUrl || (options.demo ?? true) ? undefined : randomBytes(32).toString('base64url');
  const dataDir = resolve(options.dataDir ?? '.data/web');
  type BrowserSessions = ReturnType<typeof createBrowserSessions>;
  let browserSessions: BrowserSessions | null = null;
  const events = createEventStreams({ secret, sessionOf: (request) => browserSessions?.idOf(request) ?? null });
  const transfers = new WebFileExchange();
  const serveStatic = createStaticFiles({ rendererDir: options.rendererDir, secret, reload: options.rendererReload });

  // IPC calls that arrive while the host is still wiring its services wait for them.
  let wireSessions: (sessions: BrowserSessions) => void = () => undefined;
  const sessionsWired = new Promise<BrowserSessions>((resolvePromise) => (wireSessions = resolvePromise));
  const serveIpc = createIpcOverHttp({
    secret,
    dispatch: async (hostRequest, channel, payload) => (await sessionsWired).dispatch(hostRequest, channel, payload),
  });

  let origin = '';
  // Known once listening (the port may be random).
  let hosts: ReadonlySet<string> = new Set();
  let origins: ReadonlySet<string> = new Set();
  const server = createServer(async (request, response) => {
    try {
      // DNS rebinding: a page of evil.example resolving to 127.0.0.1 reaches us naming its own host. Nothing,
      // not even the page and its secret, is served to a name that is not ours.
      if (!isListeningHost(request.headers.host, hosts)) return sendJson(response, 421, { errorMsg: MESSAGES.unknownHost });
      const url = new URL(request.url ?? '/', origin);
      const hostRequest: HostRequest = {
        request,
        response,
        url,
        foreign: isForeign(request.headers, origins),
        ownPage: isOwnPageCall(request.headers, origins),
      };
      if (url.pathname.startsWith(IPC_PREFIX)) return await serveIpc(hostRequest);
      if (url.pathname === '/__events') return events.serve(hostRequest);
      if (url.pathname === UPLOAD_PATH) return await transfers.serveUpload(hostRequest, secret);
      if (url.pathname.startsWith(DOWNLOAD_PREFIX)) return await transfers.serve(hostRequest);
      if (url.pathname.startsWith(MEDIA_PREFIX)) return await proxyMedia(hostRequest, await apiBaseUrl());
      await serveStatic(hostRequest);
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
  hosts = listeningHosts(address.port);
  origins = ownOrigins(address.port);

  // The page is served from here on; the embedded API boots meanwhile and API calls wait for it, so the login
  // form is usable before the database is (the user is typing while it finishes).
  options.onListening?.(origin);
  // Started at once, unless the user is to choose first; then on the first call that needs it.
  let apiStart: ReturnType<typeof startApi> | null = null;
  const api = () => (apiStart ??= startApi(options, origin, setupToken));
  const choosing = Boolean(options.chooseServer && !options.apiUrl);
  if (!choosing) api().catch(() => undefined);
  // Media go to the API in use: the one of the settings once the services are wired.
  let apiBaseUrl = async () => (await api()).url;
  // The IPC services (undici, zod, papaparse) load after the page is served: it needs none of them to show.
  const [{ createMainServices }, { createSessionVault }, { createJsonSettingsStore }, { machinePolicySources, readPolicy }] = await Promise.all([
    import('../main-services'),
    import('../services/session-vault'),
    import('../services/settings'),
    import('../services/policy'),
  ]);
  const settings = createJsonSettingsStore(options.settingsFile ?? join(dataDir, 'settings.json'), await readPolicy(machinePolicySources()));
  if (settings.setAside) {
    const { file, copy, reason } = settings.setAside;
    options.logger?.warn({ file, copy, reason }, 'unreadable settings file set aside, started on defaults');
  }
  if (options.apiUrl) settings.set({ apiUrl: options.apiUrl });
  const files: HostFiles = {
    async exportDestination(defaultName) {
      return transfers.exportDestination(defaultName);
    },
    async pickCsv(request) {
      return transfers.takeUpload(request.uploadId);
    },
    async savePdf(defaultName, bytes) {
      return transfers.offerBytes(defaultName, 'application/pdf', Buffer.from(bytes));
    },
    async pickUpload(request) {
      return transfers.takeUpload(request.uploadId);
    },
  };
  const services: MainServices = createMainServices({
    host: 'web',
    version: appVersion,
    settings,
    files,
    // With API_URL this is the team server; settings then name it too, so it is only asked for app:info.
    embedded: api,
    logger: options.logger,
    setupToken,
    logDir: options.logDir ?? null,
    onRendererError: (report) => options.logger?.error({ renderer: report }, `renderer error on ${report.route}: ${report.message}`),
    openFolder: openFolderWithSystem,
    workplace: choosing ? {} : undefined,
  });
  apiBaseUrl = services.apiBaseUrl;
  // One session per browser, in this process's memory only: the web host has no keychain.
  browserSessions = createBrowserSessions({
    services,
    cookieName: `__Host-backoffice_session_${address.port}`,
    createVault: () => createSessionVault({ service: 'Back-office (web)', account: 'browser' }),
    onSessionExpired: (sessionId, reason) => events.emitTo(sessionId, 'session:expired', { reason }),
    // Progress of a browser's exports and imports goes to that browser's pages only.
    emitTo: (sessionId, event, payload) => events.emitTo(sessionId, event, payload),
    idleMs: options.sessionIdleMs,
  });
  wireSessions(browserSessions);

  const close = async () => {
    events.close();
    server.closeAllConnections();
    await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    await browserSessions?.close();
    await transfers.close();
    await (await apiStart?.catch(() => null))?.embedded?.close();
  };
  if (choosing) return { url: origin, secret, apiUrl: '', embedded: null, emit: events.emit, close };
  let running: Awaited<ReturnType<typeof api>>;
  try {
    running = await api();
  } catch (error) {
    await close();
    throw error;
  }

  return { url: origin, secret, apiUrl: running.url, embedded: running.embedded, emit: events.emit, close };
}

/** The team server named in the options, or the embedded one started on PGlite. */
async function startApi(
  options: WebHostOptions,
  origin: string,
  setupToken: string | undefined,
): Promise<{ url: string; databaseKind: string; demo: boolean; embedded: RunningServer | null }> {
  if (options.apiUrl) return { url: options.apiUrl, databaseKind: 'remote', demo: false, embedded: null };
  // Loaded here, not at the top: the page is served while the server's modules load.
  const { startEmbeddedServer } = await import('../../src-server/embedded');
  const embedded = await startEmbeddedServer({
    port: 0,
    dataDir: options.dataDir,
    templateDir: options.templateDir,
    migrationsFolder: options.migrationsFolder,
    demo: options.demo ?? true,
    demoPopulation: options.demoPopulation ?? true,
    logger: options.logger,
    onOutboxMail: options.onOutboxMail,
    // Reset links open in this browser app.
    config: { resetLinkBase: origin, setupToken },
  });
  return { url: embedded.url, databaseKind: embedded.database.kind, demo: options.demo ?? true, embedded };
}
