import type { AppInfo, IpcResult } from '@shared/ipc';
import { createIpcHandlers, dispatchIpc, type IpcDependencies, type IpcHandlers, type RendererErrorReport } from './ipc/handlers';
import type { HostFiles } from './services/host-files';
import { ApiClient, type ApiClientLogger } from './services/api-client';
import { apiAddress } from './services/api-transport';
import { JobEventsFollower } from './services/job-events';
import { collectDiagnostics } from './services/diagnostics';
import type { DraftStore } from './services/drafts';
import type { SessionVault } from './services/session-vault';
import type { SettingsStore } from './services/settings';
import type { UpdateCheck } from './services/updates';
import { serverChoiceOf, type WorkplaceOptions } from './services/workplace';
import { WORKPLACE_MESSAGES } from '@shared/messages';

/** The embedded API as a host started it: its address and the kind of database behind it. */
export interface EmbeddedApi {
  url: string;
  databaseKind: string;
  /** The demo workspace (public passwords): the page says so in a banner. */
  demo?: boolean;
}

export interface MainServicesOptions {
  host: AppInfo['host'];
  version: () => string;
  settings: SettingsStore;
  files: HostFiles;
  /** Starts the embedded API on first need (no team server chosen), then answers the same promise. */
  embedded: () => Promise<EmbeddedApi>;
  logger?: ApiClientLogger;
  /** The embedded server's data folder: names its sessions across restarts (its port changes every start). */
  embeddedDataDir?: string;
  /** The setup token this launch gave its embedded server, for the first administrator (setup:createAdmin). */
  setupToken?: string;
  /** The folder of the host's log files (About page, diagnostics); null or absent: the host writes none. */
  logDir?: string | null;
  /** Versions of the runtime for the diagnostics (Electron, Chromium…); Node and the OS are added. */
  versions?: Record<string, string | undefined>;
  /** Writes an error a renderer's error boundary caught (with its route) to the host's log. */
  onRendererError?: (report: RendererErrorReport) => void;
  /** The desktop app's local drafts, in main's own store; the web host has none (its drafts stay in the browser). */
  drafts?: DraftStore;
  /** Opens a folder in the system's file manager ('' when done, else why not): « Ouvrir le dossier des journaux ». */
  openFolder?: (folder: string) => Promise<string>;
  /**
   * The user chooses where the app works (first start, « Changer de serveur »); absent: the host fixed it at launch.
   * Until the first choice, nothing starts the embedded server.
   */
  workplace?: WorkplaceOptions;
  /**
   * Who checks for updates and the last check (About page): the desktop host's update policy; absent, the web
   * host, which never updates itself.
   */
  updates?: () => { checker: 'app' | 'not-installed'; lastCheck: UpdateCheck | null };
}

/** One user's session in main: its API client (tokens in its vault) and the IPC handlers that use it. */
export interface UserSession {
  api: ApiClient;
  handlers: IpcHandlers;
  /** Validates a call against the channel map and runs it; always an IpcResult, never a throw. */
  dispatch(channel: unknown, payload: unknown): Promise<IpcResult<unknown>>;
  close(): Promise<void>;
}

export interface MainServices {
  settings: SettingsStore;
  /** The API address in use: the team server of the settings, else the embedded one once started. */
  apiBaseUrl: () => Promise<string>;
  appInfo(): Promise<AppInfo>;
  /**
   * A session over `vault`: the Electron host opens one for the app (keychain), the web host one per browser
   * (memory), each told separately when its session expires.
   */
  openSession(options: { vault: SessionVault; onSessionExpired: (reason: string) => void; emit?: IpcDependencies['emit'] }): UserSession;
}

/** The wiring both hosts share: settings, API address, app information, and per-session API client + handlers. */
export function createMainServices(options: MainServicesOptions): MainServices {
  const { settings, files } = options;
  // A server fixed by policy is not the user's to change.
  const workplace = settings.locked?.some(({ key }) => key === 'apiUrl') ? undefined : options.workplace;
  const pending = () => Boolean(workplace) && serverChoiceOf(settings.get()) === 'pending';
  const embedded = () => (pending() ? Promise.reject(new Error(WORKPLACE_MESSAGES.chooseFirst)) : options.embedded());
  const apiBaseUrl = apiAddress(() => settings.get().apiUrl, embedded);
  const appInfo = async (): Promise<AppInfo> => {
    const current = settings.get();
    const chosen = current.apiUrl;
    const updates = options.updates?.() ?? { checker: 'browser' as const, lastCheck: null };
    const running = chosen ? null : await embedded().catch(() => null);
    return {
      version: options.version(),
      apiUrl: chosen || running?.url || '',
      databaseKind: running?.databaseKind ?? 'remote',
      host: options.host,
      demo: !chosen && Boolean(running?.demo),
      ...(settings.setAside ? { settingsSetAside: settings.setAside.copy } : {}),
      ...(workplace ? { serverChoice: serverChoiceOf(settings.get()) } : {}),
      ...(settings.locked?.length ? { lockedSettings: settings.locked.map(({ key, source }) => ({ key, value: settings.get()[key], source })) } : {}),
      updates: {
        feed: current.updateUrl,
        channel: current.updateChannel,
        checker: updates.checker,
        ...(updates.lastCheck ? { lastCheck: updates.lastCheck } : {}),
      },
    };
  };
  return {
    settings,
    apiBaseUrl,
    appInfo,
    openSession({ vault, onSessionExpired, emit }) {
      let follower: JobEventsFollower | null = null;
      const api = new ApiClient({
        baseUrl: apiBaseUrl,
        vault,
        onSessionExpired: (reason) => {
          follower?.pause();
          onSessionExpired(reason);
        },
        logger: options.logger,
        // A stored session goes only to the API that issued it (the embedded one named by its data folder).
        apiIdentity: options.embeddedDataDir === undefined ? undefined : () => sessionVaultAccount(settings.get().apiUrl, options.embeddedDataDir!),
      });
      // While signed in, the server's job events go to this session's pages (a session without pages has no emit).
      if (emit) {
        follower = new JobEventsFollower({ api, onEvent: (event) => emit('job-event', event), logger: options.logger });
        follower.wake();
      }
      const handlers = createIpcHandlers({
        api,
        settings,
        files,
        appInfo,
        emit,
        setupToken: options.setupToken,
        diagnostics: async () =>
          collectDiagnostics({
            appInfo: await appInfo(),
            settings: settings.get(),
            versions: { ...options.versions, Node: process.versions.node, Système: `${process.platform} ${process.arch}` },
            logDir: options.logDir ?? null,
          }),
        reportError: options.onRendererError,
        drafts: options.drafts,
        logDir: options.logDir ?? null,
        openFolder: options.openFolder,
        workplace,
      });
      return {
        api,
        handlers,
        async dispatch(channel, payload) {
          const result = await dispatchIpc(handlers, channel, payload);
          if (follower) followSession(follower, channel, result.ok);
          return result;
        },
        async close() {
          await follower?.close();
          await api.close();
        },
      };
    },
  };
}

/** The follower of job events after a session call: a sign-in (re)starts it, a sign-out stops it, new roles reopen it. */
function followSession(follower: JobEventsFollower, channel: unknown, ok: boolean): void {
  if (channel === 'session:signOut' || (channel === 'workplace:choose' && ok)) follower.pause();
  else if (ok && (channel === 'session:signIn' || channel === 'setup:createAdmin' || channel === 'session:refresh')) {
    // Another account or new roles: the stream reopens under the new token.
    follower.pause();
    follower.wake();
  }
}

/**
 * Under which name a host keeps the session in its vault: the team server's origin, or the embedded server's
 * data folder (its port changes at every start).
 */
export function sessionVaultAccount(teamServerUrl: string, embeddedDataDir: string): string {
  if (!teamServerUrl) return `embedded:${embeddedDataDir}`;
  return URL.parse(teamServerUrl)?.origin ?? teamServerUrl;
}
