import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BrowserWindow,
  Menu,
  app,
  dialog,
  ipcMain,
  protocol,
  safeStorage,
  session,
  shell,
  utilityProcess,
  type MenuItemConstructorOptions,
  type WebContents,
} from 'electron';
import Store from 'electron-store';
import type { Logger } from 'pino';
import type { IpcEvent, IpcEventPayload } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { isTrustedSender } from '../ipc/sender';
import { createMainServices, sessionVaultAccount, type EmbeddedApi } from '../main-services';
import { DraftStore } from '../services/drafts';
import { openExternalLink } from '../services/external-links';
import { failure } from '../services/failures';
import { createSessionVault, loadKeytar, type KeyValueStore } from '../services/session-vault';
import { createSettingsStore, setAsideUnreadableFile } from '../services/settings';
import { BUILD_DEFAULTS_FILE, readBuildDefaults } from '../services/build-defaults';
import { closeEmbeddedServer } from '../services/embedded-close';
import { machinePolicySources, readPolicy } from '../services/policy';
import type { UpdatePolicy } from '../services/updates';
import { serverChoiceOf } from '../services/workplace';
import { decideDownload, leavesPage, secondWindowBounds, unsavedChangesDialog } from '../desktop-windows';
import { logFolder, startCrashReporter, startMainLog, startUpdates } from './electron-ops';
import { confirmOpenLink, confirmServer, dialogFiles, setDialogOwner } from './electron-dialogs';
import { contentTypeOf } from './mime';
import { MEDIA_PREFIX, mediaHeaders } from './web/media';
import {
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  DEEP_LINK_SCHEME,
  buildWindowOptions,
  isAllowedFrameNavigation,
  isAllowedNavigation,
  isAllowedRedirect,
  isPermissionAllowed,
  routeFromDeepLink,
} from '../window-options';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');

let mainWindow: BrowserWindow | null = null;
/** Every window of the app (the main one and those in-app links opened): the ones whose pages may call main. */
const appWindows = new Set<BrowserWindow>();
/** The external tools' addresses, read when a link is opened (the settings load after the handlers exist). */
let toolSettings: () => { shortUrlServiceUrl: string; appCreationToolUrl: string } = () => ({ shortUrlServiceUrl: '', appCreationToolUrl: '' });
let pendingRoute: string | null = null;
/** The main process's log file (hosts/electron-ops.ts), once opened. */
let logger: Logger | null = null;

/** Events go to every app window (one session for all); 'navigate' only to the main one (menu, deep links). */
function emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
  if (event === 'navigate') mainWindow?.webContents.send('backoffice:event', event, payload);
  else for (const window of appWindows) window.webContents.send('backoffice:event', event, payload);
}

/** The API in use (team server or embedded), once known: app://renderer/cdn/… passes media through to it. */
let apiBase: () => Promise<string> = () => Promise.reject(new Error(MESSAGES.networkUnreachable));

/** Stored media shown by the page from its own origin, with the API's protections (hosts/web/media.ts). */
async function serveMedia(url: URL): Promise<Response> {
  const base = new URL(await apiBase());
  const answer = await fetch(`${base.origin}${base.pathname.replace(/\/$/, '')}${url.pathname}${url.search}`);
  return new Response(answer.body, { status: answer.status, headers: mediaHeaders((name) => answer.headers.get(name) ?? undefined) });
}

/** Serves out/renderer on app://renderer with the CSP; any route that is not a file is the single-page index. */
async function serveRenderer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname.startsWith(MEDIA_PREFIX)) return serveMedia(url);
  const candidate = normalize(join(rendererDir, decodeURIComponent(url.pathname)));
  const inside = candidate.startsWith(rendererDir + sep);
  const file = inside && extname(candidate) && existsSync(candidate) ? candidate : join(rendererDir, 'index.html');
  const body = await readFile(file);
  return new Response(body, {
    headers: { 'content-type': contentTypeOf(file), 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' },
  });
}

/** The API embedded in a utility process, unless the settings name a team server. */
/** Generated at every launch: only this main process can create the first administrator of the embedded API. */
const setupToken = randomBytes(32).toString('base64url');
/** `--demo`: the demo workspace and its public passwords, opt-in (security review). */
const demo = process.argv.includes('--demo');

function startEmbeddedServer(): Promise<EmbeddedApi> {
  return new Promise((resolve, reject) => {
    const child = utilityProcess.fork(join(here, 'embedded-server.js'), [], {
      env: {
        ...process.env,
        BACKOFFICE_DATA_DIR: join(app.getPath('userData'), 'pglite'),
        BACKOFFICE_MIGRATIONS: join(here, 'migrations'),
        BACKOFFICE_PGLITE_TEMPLATE: join(here, 'pglite-template'),
        BACKOFFICE_SETUP_TOKEN: setupToken,
        BACKOFFICE_DEMO: demo ? '1' : '0',
        BACKOFFICE_LOG_DIR: logFolder(),
      },
      serviceName: 'Back-office API',
    });
    child.on(
      'message',
      (message: { type: string; url?: string; databaseKind?: string; demo?: boolean; message?: string; previousClose?: string }) => {
        if (message.type === 'ready' && message.previousClose === 'unclean') logger?.warn('embedded database recovered from an unclean close');
        if (message.type === 'ready' && message.url)
          resolve({ url: message.url, databaseKind: message.databaseKind ?? 'pglite', demo: message.demo === true });
        if (message.type === 'error') reject(new Error(message.message));
      },
    );
    let exited = false;
    child.on('exit', (code) => {
      exited = true;
      reject(new Error(`${MESSAGES.embeddedServerStopped} (${code})`));
    });
    // The quit waits (bounded) for the server's orderly close, asked by a message: a kill, or a signal Windows never
    // delivers, left its database to recover at the next start.
    let closing: Promise<void> | null = null;
    app.on('before-quit', (event) => {
      if (exited) return;
      event.preventDefault();
      closing ??= closeEmbeddedServer(child).then((how) => {
        logger?.info({ how }, 'embedded server stopped');
        exited = true;
        app.quit();
      });
    });
  });
}

function buildMenu(): void {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const, label: 'Back-office' }] : []),
    { label: MESSAGES.menuFile, submenu: [{ label: MESSAGES.menuQuit, accelerator: 'CmdOrCtrl+Q', role: 'quit' }] },
    {
      label: MESSAGES.menuEdit,
      submenu: [
        { label: MESSAGES.menuUndo, accelerator: 'CmdOrCtrl+Z', role: 'undo' },
        { label: MESSAGES.menuRedo, accelerator: 'Shift+CmdOrCtrl+Z', role: 'redo' },
        { type: 'separator' },
        { label: MESSAGES.menuCut, accelerator: 'CmdOrCtrl+X', role: 'cut' },
        { label: MESSAGES.menuCopy, accelerator: 'CmdOrCtrl+C', role: 'copy' },
        { label: MESSAGES.menuPaste, accelerator: 'CmdOrCtrl+V', role: 'paste' },
        { label: MESSAGES.menuSelectAll, accelerator: 'CmdOrCtrl+A', role: 'selectAll' },
      ],
    },
    {
      label: MESSAGES.menuView,
      submenu: [
        { label: MESSAGES.menuReload, accelerator: 'CmdOrCtrl+R', role: 'reload' },
        { type: 'separator' },
        { label: MESSAGES.menuZoomIn, accelerator: 'CmdOrCtrl+Plus', role: 'zoomIn' },
        { label: MESSAGES.menuZoomOut, accelerator: 'CmdOrCtrl+-', role: 'zoomOut' },
        { label: MESSAGES.menuActualSize, accelerator: 'CmdOrCtrl+0', role: 'resetZoom' },
        { type: 'separator' },
        { label: MESSAGES.menuFullScreen, role: 'togglefullscreen' },
      ],
    },
    { label: MESSAGES.menuHelp, submenu: [{ label: MESSAGES.menuAbout, click: () => emit('navigate', { path: '/about' }) }] },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function openDeepLink(url: string): void {
  const route = routeFromDeepLink(url);
  if (!route) return;
  if (mainWindow) {
    emit('navigate', { path: route });
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  } else {
    pendingRoute = route;
  }
}

/** Links of the app's scheme open it on their page: at launch, from a second launch, or from macOS. */
function handleDeepLinks(): void {
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openDeepLink(url);
  });
  app.on('second-instance', (_event, argv) => {
    const link = argv.find((arg) => arg.startsWith(`${DEEP_LINK_SCHEME}://`));
    if (link) openDeepLink(link);
    else mainWindow?.focus();
  });
  const initialLink = process.argv.find((arg) => arg.startsWith(`${DEEP_LINK_SCHEME}://`));
  if (initialLink) openDeepLink(initialLink);
}

/**
 * Every web contents stays on the app: no navigation, redirect or frame elsewhere, no webview. Chromium opens no
 * window itself: an in-app route opens in a second app window of ours, the browser gets the external tools and
 * the product's media, and any other https link only once the user said yes in a dialog the page cannot draw or
 * click (services/external-links.ts).
 */
function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedRedirect(url)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAllowedFrameNavigation(event.url, event.isMainFrame)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void (async () => {
      const { shortUrlServiceUrl, appCreationToolUrl } = toolSettings();
      const base = await apiBase().catch(() => null);
      await openExternalLink(
        url,
        { tools: [shortUrlServiceUrl, appCreationToolUrl], appOrigin: APP_ORIGIN, apiBase: base },
        {
          confirm: confirmOpenLink,
          open: (address) => shell.openExternal(address),
          openAppWindow: (path) => createAppWindow(path, BrowserWindow.fromWebContents(contents)),
        },
      );
    })().catch((error: unknown) => logger?.warn({ err: error }, 'external link not opened'));
    return { action: 'deny' };
  });
}

/** An electron-store file; one it still cannot open (a folder it cannot write) leaves this run on memory, not stopped. */
function openStore(options: ConstructorParameters<typeof Store>[0]): KeyValueStore {
  try {
    return new Store(options) as unknown as KeyValueStore;
  } catch (error) {
    logger?.error({ err: error }, 'settings store unavailable: kept in memory for this run');
    const values = new Map<string, unknown>();
    return { get: (key) => values.get(key), set: (key, value) => void values.set(key, value), delete: (key) => void values.delete(key) };
  }
}

let windowSettings: ReturnType<typeof createSettingsStore> | null = null;

/**
 * An app window on `route`: the main one (bounds remembered), or a second one an in-app link opened (same
 * session and security options, its own history). Each asks before unsaved changes are left.
 */
function createAppWindow(route: string, opener: BrowserWindow | null = null): BrowserWindow {
  const main = mainWindow === null;
  const bounds = main ? (windowSettings?.getWindowBounds() ?? null) : secondWindowBounds(opener?.getBounds() ?? null);
  const window = new BrowserWindow(buildWindowOptions({ preloadPath: join(here, '../preload/index.cjs'), bounds, isPackaged: app.isPackaged }));
  appWindows.add(window);
  if (main) {
    mainWindow = window;
    window.on('close', () => windowSettings?.setWindowBounds(window.getBounds()));
  }
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    appWindows.delete(window);
    // The main window gone, the next app window (if any) takes its place for the menu and deep links.
    if (mainWindow === window) mainWindow = appWindows.values().next().value ?? null;
  });
  // An editor with unsaved changes holds the page (beforeunload): closing or reloading the window asks first, in
  // a native dialog; 'Quitter' lets it go (desktop-windows.ts).
  window.webContents.on('will-prevent-unload', (event) => {
    if (leavesPage(dialog.showMessageBoxSync(window, { ...unsavedChangesDialog, buttons: [...unsavedChangesDialog.buttons] })))
      event.preventDefault();
  });
  void window.loadURL(`${APP_ORIGIN}${route}`);
  return window;
}

/** Downloads the page starts: the app's media and blobs through the save dialog, anything else cancelled. */
function guardDownloads(): void {
  session.defaultSession.on('will-download', (event, item) => {
    const decision = decideDownload(item.getURL(), item.getFilename());
    if (decision.action === 'cancel') return event.preventDefault();
    item.setSaveDialogOptions({ defaultPath: join(app.getPath('downloads'), decision.defaultName) });
  });
}

/** The desktop app: one instance, one window, the renderer on app://, every IPC call checked. */
export async function runElectronHost(): Promise<void> {
  setDialogOwner(() => mainWindow);
  if (process.env.BACKOFFICE_USER_DATA) app.setPath('userData', process.env.BACKOFFICE_USER_DATA);
  if (!app.requestSingleInstanceLock()) return app.quit();
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  // It may hold the session (encrypted by safeStorage) where no keychain exists: readable by the user only. A file
  // a hand edit left unreadable is set aside first (electron-store would throw): the app starts on its defaults.
  const setAside = setAsideUnreadableFile(join(app.getPath('userData'), 'backoffice.json'));
  const draftsSetAside = setAsideUnreadableFile(join(app.getPath('userData'), 'drafts.json'));
  const store = openStore({ name: 'backoffice', configFileMode: 0o600 });
  // What IT preset for this machine (registry, configuration profile, /etc file, environment) beats the user's file,
  // which beats what the company's build baked (`npm run dist`: update feed and channel, team server).
  const settings = createSettingsStore(store, setAside, await readPolicy(machinePolicySources()), readBuildDefaults(join(here, BUILD_DEFAULTS_FILE)));
  // As early as possible (crashReporter docs): a crash during the start leaves its minidump too.
  startCrashReporter(settings);
  const log = await startMainLog();
  logger = log.logger;
  for (const file of [setAside, draftsSetAside])
    if (file) log.logger.warn({ file: file.file, copy: file.copy, reason: file.reason }, 'unreadable settings file set aside, started on defaults');
  handleDeepLinks();

  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));

  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionAllowed(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => isPermissionAllowed(permission));
  protocol.handle('app', serveRenderer);
  guardDownloads();
  buildMenu();

  windowSettings = settings;
  toolSettings = () => settings.get();
  // The window opens at once; the embedded API (when no team server is set) boots meanwhile and API calls wait
  // for it. Started on demand too, should the user clear the team server's URL later.
  let embeddedStart: ReturnType<typeof startEmbeddedServer> | null = null;
  const embedded = () => {
    embeddedStart ??= startEmbeddedServer();
    return embeddedStart;
  };
  // An install from before the first start's choice that already has its database worked on this computer.
  const pgliteDir = join(app.getPath('userData'), 'pglite');
  if (!demo && serverChoiceOf(settings.get()) === 'pending' && existsSync(pgliteDir)) settings.set({ workplace: 'local' });
  const teamServerAtStart = settings.get().apiUrl;
  if (!teamServerAtStart && (demo || serverChoiceOf(settings.get()) === 'local')) embedded().catch(() => undefined);
  apiBase = async () => settings.get().apiUrl || (await embedded()).url;
  const vault = await createSessionVault({
    service: 'Back-office',
    account: sessionVaultAccount(teamServerAtStart, app.getPath('userData')),
    keytar: await loadKeytar(),
    encryptor: safeStorage,
    store,
  });

  let updates: UpdatePolicy | null = null;
  const services = createMainServices({
    host: 'electron',
    version: () => app.getVersion(),
    settings,
    files: dialogFiles(),
    embedded,
    embeddedDataDir: app.getPath('userData'),
    logger: { warn: (details, message) => log.logger.warn(details, message) },
    setupToken,
    logDir: logFolder(),
    versions: { Electron: process.versions.electron, Chromium: process.versions.chrome },
    onRendererError: (report) => log.logger.error({ renderer: report }, `renderer error on ${report.route}: ${report.message}`),
    // Unsaved edits, in a file of their own beside the settings (docs/architecture.md, "Versions and conflicts"):
    // readable by the user only, keys taken literally (record keys are no paths).
    drafts: new DraftStore(openStore({ name: 'drafts', configFileMode: 0o600, accessPropertiesByDotNotation: false })),
    openFolder: (folder) => shell.openPath(folder),
    // The first start asks where to work (the demo works on this computer); a team server is confirmed natively.
    workplace: demo ? undefined : { confirm: confirmServer },
    updates: () => ({ checker: app.isPackaged ? 'app' : 'not-installed', lastCheck: updates?.lastCheck() ?? null }),
  });
  // One session for the app, kept in the OS keychain.
  const userSession = services.openSession({ vault, onSessionExpired: (reason) => emit('session:expired', { reason }), emit });

  ipcMain.handle('backoffice:invoke', (event, channel: unknown, payload: unknown) => {
    const trusted = isTrustedSender(
      {
        webContentsId: event.sender.id,
        isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame,
        frameUrl: event.senderFrame?.url,
      },
      { webContentsIds: new Set([...appWindows].map((window) => window.webContents.id)), origin: APP_ORIGIN },
    );
    if (!trusted) return failure(403, MESSAGES.userNotAllowed);
    return userSession.dispatch(channel, payload);
  });

  createAppWindow(pendingRoute ?? '/');
  pendingRoute = null;
  updates = startUpdates(settings, log.logger, () => mainWindow);
  app.on('activate', () => appWindows.size === 0 && createAppWindow('/'));
  app.on('window-all-closed', () => process.platform !== 'darwin' && app.quit());
  app.on('will-quit', () => void userSession.close());
}
