import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserWindow, Menu, app, dialog, ipcMain, protocol, safeStorage, session, shell, utilityProcess, type MenuItemConstructorOptions } from 'electron';
import Store from 'electron-store';
import type { IpcEvent, IpcEventPayload } from '@shared/ipc';
import { createIpcHandlers, dispatchIpc, type HostFiles } from '../ipc/handlers';
import { isTrustedSender } from '../ipc/sender';
import { ApiClient, apiAddress } from '../services/api-client';
import { savePdfFile } from '../services/files';
import { createSessionVault, loadKeytar, type KeyValueStore } from '../services/session-vault';
import { createSettingsStore } from '../services/settings';
import {
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  DEEP_LINK_SCHEME,
  buildWindowOptions,
  externalUrlToOpen,
  isAllowedFrameNavigation,
  isAllowedNavigation,
  isAllowedRedirect,
  isPermissionAllowed,
  routeFromDeepLink,
} from '../window-options';

const here = dirname(fileURLToPath(import.meta.url));
const rendererDir = join(here, '../renderer');
const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };

let mainWindow: BrowserWindow | null = null;
/** The external tools' addresses, read when a link is opened (the settings load after the handlers exist). */
let toolSettings: () => { shortUrlServiceUrl: string; appCreationToolUrl: string } = () => ({ shortUrlServiceUrl: '', appCreationToolUrl: '' });
let pendingRoute: string | null = null;

function emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
  mainWindow?.webContents.send('backoffice:event', event, payload);
}

/** Serves out/renderer on app://renderer with the CSP; any route that is not a file is the single-page index. */
async function serveRenderer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const candidate = normalize(join(rendererDir, decodeURIComponent(url.pathname)));
  const inside = candidate.startsWith(rendererDir + sep);
  const file = inside && extname(candidate) && existsSync(candidate) ? candidate : join(rendererDir, 'index.html');
  const body = await readFile(file);
  return new Response(body, {
    headers: { 'content-type': MIME[extname(file)] ?? 'application/octet-stream', 'content-security-policy': CONTENT_SECURITY_POLICY, 'x-content-type-options': 'nosniff' },
  });
}

/** The API embedded in a utility process, unless the settings name a team server. */
function startEmbeddedServer(): Promise<{ url: string; databaseKind: string }> {
  return new Promise((resolve, reject) => {
    const child = utilityProcess.fork(join(here, 'embedded-server.js'), [], {
      env: { ...process.env, BACKOFFICE_DATA_DIR: join(app.getPath('userData'), 'pglite'), BACKOFFICE_MIGRATIONS: join(here, 'migrations'), BACKOFFICE_PGLITE_TEMPLATE: join(here, 'pglite-template') },
      serviceName: 'Back-office API',
    });
    child.on('message', (message: { type: string; url?: string; databaseKind?: string; message?: string }) => {
      if (message.type === 'ready' && message.url) resolve({ url: message.url, databaseKind: message.databaseKind ?? 'pglite' });
      if (message.type === 'error') reject(new Error(message.message));
    });
    child.on('exit', (code) => reject(new Error(`embedded API stopped (${code})`)));
    app.on('before-quit', () => child.kill());
  });
}

function buildMenu(): void {
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const, label: 'Back-office' }] : []),
    { label: 'Fichier', submenu: [{ label: 'Quitter', accelerator: 'CmdOrCtrl+Q', role: 'quit' }] },
    {
      label: 'Édition',
      submenu: [
        { label: 'Annuler', accelerator: 'CmdOrCtrl+Z', role: 'undo' },
        { label: 'Rétablir', accelerator: 'Shift+CmdOrCtrl+Z', role: 'redo' },
        { type: 'separator' },
        { label: 'Couper', accelerator: 'CmdOrCtrl+X', role: 'cut' },
        { label: 'Copier', accelerator: 'CmdOrCtrl+C', role: 'copy' },
        { label: 'Coller', accelerator: 'CmdOrCtrl+V', role: 'paste' },
        { label: 'Tout sélectionner', accelerator: 'CmdOrCtrl+A', role: 'selectAll' },
      ],
    },
    {
      label: 'Affichage',
      submenu: [
        { label: 'Recharger', accelerator: 'CmdOrCtrl+R', role: 'reload' },
        { type: 'separator' },
        { label: 'Zoom avant', accelerator: 'CmdOrCtrl+Plus', role: 'zoomIn' },
        { label: 'Zoom arrière', accelerator: 'CmdOrCtrl+-', role: 'zoomOut' },
        { label: 'Taille réelle', accelerator: 'CmdOrCtrl+0', role: 'resetZoom' },
        { type: 'separator' },
        { label: 'Plein écran', role: 'togglefullscreen' },
      ],
    },
    { label: 'Aide', submenu: [{ label: 'À propos', click: () => emit('navigate', { path: '/about' }) }] },
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

/** The desktop app: one instance, one window, the renderer on app://, every IPC call checked. */
export async function runElectronHost(): Promise<void> {
  if (process.env.BACKOFFICE_USER_DATA) app.setPath('userData', process.env.BACKOFFICE_USER_DATA);
  if (!app.requestSingleInstanceLock()) return app.quit();
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
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

  app.on('web-contents-created', (_event, contents) => {
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
      const { shortUrlServiceUrl, appCreationToolUrl } = toolSettings();
      const external = externalUrlToOpen(url, [shortUrlServiceUrl, appCreationToolUrl].filter(Boolean));
      if (external) void shell.openExternal(external);
      return { action: 'deny' };
    });
  });

  await app.whenReady();
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionAllowed(permission)));
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => isPermissionAllowed(permission));
  protocol.handle('app', serveRenderer);
  buildMenu();

  const store = new Store({ name: 'backoffice' }) as unknown as KeyValueStore;
  const settings = createSettingsStore(store);
  toolSettings = () => settings.get();
  // The window opens at once; the embedded API (when no team server is set) boots meanwhile and API calls wait
  // for it. Started on demand too, should the user clear the team server's URL later.
  let embeddedStart: ReturnType<typeof startEmbeddedServer> | null = null;
  const embedded = () => {
    embeddedStart ??= startEmbeddedServer();
    return embeddedStart;
  };
  const teamServerAtStart = settings.get().apiUrl;
  if (!teamServerAtStart) embedded().catch(() => undefined);
  const vault = await createSessionVault({
    service: 'Back-office',
    // The embedded server's port changes at every start: its sessions are keyed by the data folder instead.
    account: teamServerAtStart ? (URL.parse(teamServerAtStart)?.origin ?? teamServerAtStart) : `embedded:${app.getPath('userData')}`,
    keytar: await loadKeytar(),
    encryptor: safeStorage,
    store,
  });
  const apiBaseUrl = apiAddress(() => settings.get().apiUrl, () => embedded());
  const api = new ApiClient({ baseUrl: apiBaseUrl, vault, onSessionExpired: (reason) => emit('session:expired', { reason }) });

  const files: HostFiles = {
    async exportDestination(defaultName) {
      const chosen = await dialog.showSaveDialog(mainWindow!, { defaultPath: defaultName, filters: [{ name: 'CSV', extensions: ['csv'] }] });
      if (chosen.canceled || !chosen.filePath) return null;
      const path = chosen.filePath;
      // The export writes beside the chosen name and renames at the end: nothing to clean up here.
      return { path, finish: () => ({ savedAs: path }), abandon: () => undefined };
    },
    async pickCsv() {
      const picked = await dialog.showOpenDialog(mainWindow!, { properties: ['openFile'], filters: [{ name: 'CSV', extensions: ['csv'] }] });
      const path = picked.filePaths[0];
      return picked.canceled || !path ? null : { path, fileName: basename(path), temporary: false };
    },
    async savePdf(defaultName, bytes) {
      const chosen = await dialog.showSaveDialog(mainWindow!, { defaultPath: defaultName, filters: [{ name: 'PDF', extensions: ['pdf'] }] });
      if (chosen.canceled || !chosen.filePath) return null;
      await savePdfFile(chosen.filePath, bytes);
      return { savedAs: chosen.filePath };
    },
  };
  const handlers = createIpcHandlers({
    api,
    settings,
    files,
    emit,
    appInfo: async () => {
      const chosen = settings.get().apiUrl;
      const running = chosen ? null : await embedded().catch(() => null);
      return { version: app.getVersion(), apiUrl: chosen || running?.url || '', databaseKind: running?.databaseKind ?? 'remote', host: 'electron' };
    },
  });

  ipcMain.handle('backoffice:invoke', (event, channel: unknown, payload: unknown) => {
    const trusted =
      mainWindow !== null &&
      isTrustedSender(
        { webContentsId: event.sender.id, isMainFrame: event.senderFrame !== null && event.senderFrame === event.sender.mainFrame, frameUrl: event.senderFrame?.url },
        { webContentsId: mainWindow.webContents.id, origin: APP_ORIGIN },
      );
    if (!trusted) return { ok: false, status: 403, errorMsg: 'User not allowed' };
    return dispatchIpc(handlers, channel, payload);
  });

  const createWindow = () => {
    mainWindow = new BrowserWindow(buildWindowOptions({ preloadPath: join(here, '../preload/index.cjs'), bounds: settings.getWindowBounds(), isPackaged: app.isPackaged }));
    mainWindow.once('ready-to-show', () => mainWindow?.show());
    mainWindow.on('close', () => mainWindow && settings.setWindowBounds(mainWindow.getBounds()));
    mainWindow.on('closed', () => (mainWindow = null));
    void mainWindow.loadURL(`${APP_ORIGIN}${pendingRoute ?? '/'}`);
    pendingRoute = null;
  };
  createWindow();
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createWindow());
  app.on('window-all-closed', () => process.platform !== 'darwin' && app.quit());
  app.on('will-quit', () => void api.close());
}
