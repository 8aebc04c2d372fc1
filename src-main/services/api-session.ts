import type { Session } from '@shared/contract';
import type { IpcFailure, IpcResult, SessionInfo } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { failure } from './failures';
import type { SessionVault } from './session-vault';

/** Either a usable session, or the failure to hand back to the caller as is. */
export type SessionOrFailure = { session: Session } | { failure: IpcFailure };

/** What the session keeper reads of the client's options (ApiClientOptions). */
export interface SessionOptions {
  baseUrl: () => string | Promise<string>;
  vault: SessionVault;
  onSessionExpired?: (reason: string) => void;
  apiIdentity?: () => string | Promise<string>;
}

/**
 * The API client's session (services/api-client.ts): kept in the vault for the API that issued it, refreshed
 * shortly before the access token expires (one refresh in flight, shared), ended once when the server refuses it.
 */
export class ApiSessions {
  private refreshing: Promise<SessionOrFailure> | null = null;

  constructor(
    private readonly options: SessionOptions,
    /** Refresh when the access token expires within this margin. */
    private readonly refreshMarginMs: number,
    private readonly now: () => number,
    /** Exchanges a refresh token for a new session (auth.refresh, without a bearer token). */
    private readonly exchange: (refreshToken: string) => Promise<IpcResult<Session>>,
  ) {}

  async identity(): Promise<string> {
    if (this.options.apiIdentity) return this.options.apiIdentity();
    return URL.parse(await this.options.baseUrl())?.origin ?? '';
  }

  /** The stored session, if the API it was issued by is the one in use now; otherwise none (sign in again). */
  async loadSession(): Promise<Session | null> {
    const stored = await this.options.vault.load();
    if (!stored) return null;
    const current = await this.identity().catch(() => null);
    return stored.api !== undefined && stored.api === current ? stored : null;
  }

  async saveSession(session: Session): Promise<void> {
    const { accessToken, refreshToken, userId, roles } = session;
    await this.options.vault.save({ accessToken, refreshToken, userId, roles, api: await this.identity() });
  }

  toInfo(session: Session): SessionInfo {
    return { userId: session.userId, roles: session.roles, expiresAt: session.refreshToken.expiresAt, persistent: this.options.vault.persistent };
  }

  async expired(reason: string): Promise<IpcFailure> {
    await this.options.vault.clear();
    this.options.onSessionExpired?.(reason);
    return failure(401, reason);
  }

  isFresh(session: Session): boolean {
    return Date.parse(session.accessToken.expiresAt) - this.now() > this.refreshMarginMs;
  }

  /** The session with an access token good for at least the margin, refreshing first when needed. */
  async validSession(): Promise<SessionOrFailure> {
    const session = await this.loadSession();
    // No session at all (signed out, or the 1-day session is over): the user must sign in again.
    if (!session) return { failure: await this.expired(MESSAGES.sessionExpired) };
    if (this.isFresh(session)) return { session };
    return this.refresh(session);
  }

  /**
   * Exchanges the refresh token for a new session. Concurrent callers share one refresh in flight: a refresh
   * token is single-use, and presenting a used one again makes the server revoke the whole family.
   * A network failure keeps the session (the user may retry); a refusal ends it, signalled once.
   */
  refresh(stale: Session, force = false): Promise<SessionOrFailure> {
    this.refreshing ??= (async () => {
      try {
        // A caller that read the vault just before another refresh finished holds a used refresh token:
        // take the rotated session instead of presenting the used token again.
        const current = await this.loadSession();
        if (!current) return { failure: failure(401, MESSAGES.sessionExpired) };
        if (!force && current.refreshToken.value !== stale.refreshToken.value && this.isFresh(current)) return { session: current };
        const result = await this.exchange(current.refreshToken.value);
        if (!result.ok) {
          if (result.status === 0) return { failure: result };
          return { failure: await this.expired(result.errorMsg) };
        }
        const next = result.data;
        await this.saveSession(next);
        return { session: next };
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }
}
