import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IpcEvent, IpcEventPayload, IpcResult } from '@shared/ipc';
import type { MainServices, UserSession } from '../../main-services';
import type { SessionVault } from '../../services/session-vault';
import type { HostRequest } from './http';

/** Eight hours without a request from its browser ends a host session (the API session lasts one day at most). */
export const DEFAULT_IDLE_MS = 8 * 60 * 60 * 1000;
/** The device cookie's life: renewed at each sign-in, it outlives sign-outs (the API's device token lasts 90 days). */
const DEVICE_COOKIE_MAX_AGE_S = 90 * 24 * 60 * 60;

interface HostSession {
  id: string;
  session: UserSession;
  lastSeen: number;
}

export interface BrowserSessionsOptions {
  services: MainServices;
  /**
   * Per listening port: cookies are not, and two hosts on one machine must not sign each other out. Starts with
   * `__Host-` (the cookies are set Secure).
   */
  cookieName: `__Host-${string}`;
  /** A fresh, empty vault for a new browser session (memory: the web host has no keychain). */
  createVault: () => Promise<SessionVault>;
  /** Tells the pages of one browser session (its event streams) that its API session ended. */
  onSessionExpired: (hostSessionId: string, reason: string) => void;
  /** Pushes other events (export and import progress) to the pages of one browser session. */
  emitTo?: <E extends IpcEvent>(hostSessionId: string, event: E, payload: IpcEventPayload<E>) => void;
  idleMs?: number;
  now?: () => number;
}

function cookieValue(request: IncomingMessage, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=') || null;
  }
  return null;
}

/**
 * One session per browser on the web host: a random id in an HttpOnly, SameSite=Strict cookie names a host
 * session holding that browser's own API client and vault. Created at sign-in, dropped at sign-out or after
 * `idleMs` without a request. A browser without one (or with an unknown id) is signed out: its calls run on an
 * anonymous session that never holds tokens (sign-in always opens a new host session).
 */
export function createBrowserSessions(options: BrowserSessionsOptions) {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, HostSession>();
  const anonymous = options.createVault().then((vault) => options.services.openSession({ vault, onSessionExpired: () => undefined }));

  // `__Host-` (so Secure, Path=/ and no Domain: no other host can set or shadow them; browsers take Secure cookies
  // from http://127.0.0.1 and localhost, trustworthy origins). Cookies carry no port: the name has it.
  const cookie = (value: string, maxAgeSeconds?: number, name: string = options.cookieName) =>
    `${name}=${value}; HttpOnly; SameSite=Strict; Secure; Path=/${maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`}`;
  /**
   * The browser's device token (sign-in throttling's known-device lane): HttpOnly, never seen by the page, and
   * opaque (the API's device token names neither the account nor its e-mail).
   */
  const deviceCookie = `${options.cookieName}-device`;

  function sweep(): void {
    const limit = now() - idleMs;
    for (const [id, held] of sessions) {
      if (held.lastSeen < limit) {
        sessions.delete(id);
        void held.session.close();
      }
    }
  }

  /** The browser's live host session, touched; null when it has none. */
  function find(request: IncomingMessage): HostSession | null {
    sweep();
    const id = cookieValue(request, options.cookieName);
    const held = id ? sessions.get(id) : undefined;
    if (!held) return null;
    held.lastSeen = now();
    return held;
  }

  function drop(held: HostSession | null, response: ServerResponse): void {
    if (held) {
      sessions.delete(held.id);
      void held.session.close();
    }
    response.setHeader('Set-Cookie', cookie('', 0));
  }

  /** The channels that sign a browser in: each opens a new host session, never the shared anonymous one. */
  const SIGN_IN_CHANNELS = new Set(['session:signIn', 'setup:createAdmin']);

  async function signIn(
    current: HostSession | null,
    { request, response }: HostRequest,
    channel: string,
    payload: unknown,
  ): Promise<IpcResult<unknown>> {
    const id = randomBytes(32).toString('base64url');
    // The device token lives in the browser, not in the host's memory: read from its cookie, written back to it.
    const held = cookieValue(request, deviceCookie);
    let issued: string | null = null;
    const vault: SessionVault = {
      ...(await options.createVault()),
      loadDeviceToken: async () => (held && /^[A-Za-z0-9._-]+$/.test(held) ? held : null),
      saveDeviceToken: async (_key, token) => void (issued = token),
    };
    const session = options.services.openSession({
      vault,
      onSessionExpired: (reason) => options.onSessionExpired(id, reason),
      emit: (event, payload) => options.emitTo?.(id, event, payload),
    });
    const result = await session.dispatch(channel, payload);
    if (!result.ok) {
      await session.close();
      return result;
    }
    // A new sign-in replaces whatever this browser held before.
    drop(current, response);
    sessions.set(id, { id, session, lastSeen: now() });
    response.setHeader('Set-Cookie', [cookie(id), ...(issued ? [cookie(issued, DEVICE_COOKIE_MAX_AGE_S, deviceCookie)] : [])]);
    return result;
  }

  return {
    async dispatch(exchange: HostRequest, channel: string, payload: unknown): Promise<IpcResult<unknown>> {
      const { request, response } = exchange;
      const held = find(request);
      if (SIGN_IN_CHANNELS.has(channel)) return signIn(held, exchange, channel, payload);
      const session = held?.session ?? (await anonymous);
      const result = await session.dispatch(channel, payload);
      if (channel === 'session:signOut') drop(held, response);
      return result;
    },
    /** The host session id of the request's browser, or null (signed out): event streams are kept per id. */
    idOf(request: IncomingMessage): string | null {
      return find(request)?.id ?? null;
    },
    size(): number {
      sweep();
      return sessions.size;
    },
    async close(): Promise<void> {
      await Promise.all([...sessions.values()].map((held) => held.session.close()));
      sessions.clear();
      await (await anonymous).close();
    },
  };
}
