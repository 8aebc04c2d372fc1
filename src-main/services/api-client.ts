import { Readable } from 'node:stream';
import { Agent, request, errors as undiciErrors, type Dispatcher } from 'undici';
import {
  buildPath,
  contract,
  needsToken,
  type Contract,
  type Operation,
  type OperationId,
  type OperationInput,
  type OperationOutput,
  type Session,
} from '@shared/contract';
import type { AnyOperationInput, IpcFailure, IpcResult, SessionInfo } from '@shared/ipc';
import { DESKTOP_MESSAGES, MESSAGES } from '@shared/messages';
import { answerFailure, failure, validationFailure } from './failures';
import { isRetryable, newIdempotencyKey, retryingDispatcher, RETRY_BOUNDS, sendsIdempotencyKey } from './retry-policy';
import type { SessionVault } from './session-vault';
import { isAcceptableApiUrl } from './settings';
import type { MultipartBody } from './upload';

/** Where the client reports what the user cannot act on (an answer that breaks the contract). */
export interface ApiClientLogger {
  warn(details: object, message: string): void;
}

export interface ApiClientOptions {
  /**
   * Read on every call, so changing the API URL in the settings takes effect at once. A promise while the
   * embedded API is still starting: calls wait for it rather than fail.
   */
  baseUrl: () => string | Promise<string>;
  vault: SessionVault;
  timeoutMs?: number;
  /** Refresh when the access token expires within this margin. */
  refreshMarginMs?: number;
  now?: () => number;
  onSessionExpired?: (reason: string) => void;
  logger?: ApiClientLogger;
  /**
   * Which API a session belongs to (the team server's origin, or the embedded server's data folder): a stored
   * session is only ever presented to the API that issued it. Default: the origin of `baseUrl`.
   */
  apiIdentity?: () => string | Promise<string>;
}

/** The API cannot be reached for a reason the user should read as is (the embedded server did not start). */
export class ApiUnavailableError extends Error {}

/**
 * The API address for both hosts: the team server chosen in the settings, else the embedded server once it has
 * started; a failed start becomes a message the user can read.
 */
export function apiAddress(chosen: () => string, embedded: () => Promise<{ url: string }>): () => Promise<string> {
  return async () => {
    const teamServer = chosen();
    // A hand-edited settings file may name a plain-http server elsewhere: refused, never silently replaced.
    if (teamServer && !isAcceptableApiUrl(teamServer)) throw new ApiUnavailableError(DESKTOP_MESSAGES.invalidServerUrl);
    if (teamServer) return teamServer;
    try {
      return (await embedded()).url;
    } catch (error) {
      throw new ApiUnavailableError(`${MESSAGES.embeddedServerFailed} : ${(error as Error).message}`);
    }
  };
}

/** Either a usable session, or the failure to hand back to the caller as is. */
type SessionOrFailure = { session: Session } | { failure: IpcFailure };

/**
 * The API client of the main process: one generic path for every contract operation, the bearer token from the
 * vault, a refresh shortly before the access token expires (one in flight, shared), and typed failures.
 */
export class ApiClient {
  private readonly dispatcher: Dispatcher;
  /** The same connections, trying reads and keyed creates again (services/retry-policy.ts). */
  private readonly retrying: Dispatcher;
  /** Uploads of large files: no overall time limit (the user may cancel), only a long stall ends them. */
  private uploadDispatcher: Dispatcher | null = null;
  /** Long-lived streams (job events): no overall limit, only a silence longer than the server's heartbeats. */
  private streamDispatcher: Dispatcher | null = null;
  private refreshing: Promise<SessionOrFailure> | null = null;
  private readonly timeoutMs: number;
  private readonly refreshMarginMs: number;
  private readonly now: () => number;

  constructor(private readonly options: ApiClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.refreshMarginMs = options.refreshMarginMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.dispatcher = new Agent({ connect: { timeout: this.timeoutMs }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    this.retrying = retryingDispatcher(this.dispatcher);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
    await this.uploadDispatcher?.close();
    await this.streamDispatcher?.destroy();
  }

  private async identity(): Promise<string> {
    if (this.options.apiIdentity) return this.options.apiIdentity();
    return URL.parse(await this.options.baseUrl())?.origin ?? '';
  }

  /** The stored session, if the API it was issued by is the one in use now; otherwise none (sign in again). */
  private async loadSession(): Promise<Session | null> {
    const stored = await this.options.vault.load();
    if (!stored) return null;
    const current = await this.identity().catch(() => null);
    return stored.api !== undefined && stored.api === current ? stored : null;
  }

  private async saveSession(session: Session): Promise<void> {
    const { accessToken, refreshToken, userId, roles } = session;
    await this.options.vault.save({ accessToken, refreshToken, userId, roles, api: await this.identity() });
  }

  private toInfo(session: Session): SessionInfo {
    return { userId: session.userId, roles: session.roles, expiresAt: session.refreshToken.expiresAt, persistent: this.options.vault.persistent };
  }

  async sessionInfo(): Promise<SessionInfo | null> {
    const session = await this.loadSession();
    return session ? this.toInfo(session) : null;
  }

  /**
   * The signed-in user as main knows it, for what main keeps per user (local drafts): the API that issued the
   * session and its tokens, which such data must never hold. Never read from the renderer.
   */
  async account(): Promise<{ userId: number; api: string; secrets: string[] } | null> {
    const session = await this.loadSession();
    if (!session) return null;
    return { userId: session.userId, api: await this.identity(), secrets: [session.accessToken.value, session.refreshToken.value] };
  }

  async signIn(username: string, password: string): Promise<IpcResult<SessionInfo>> {
    // The device token of an earlier sign-in of this username to this API (a missing keychain entry is no token).
    const deviceKey = `${await this.identity().catch(() => '')}\u0000${username.trim().toLowerCase()}`;
    const deviceToken = (await this.options.vault.loadDeviceToken(deviceKey).catch(() => null)) ?? undefined;
    const result = await this.send('auth.signIn', { body: { username, password, deviceToken } }, null);
    if (!result.ok) return result;
    const { deviceToken: issued, ...session } = result.data;
    // Losing it costs only the known-device lane: the sign-in itself succeeded.
    await this.options.vault.saveDeviceToken(deviceKey, issued).catch(() => undefined);
    try {
      await this.saveSession(session);
    } catch {
      // The server said yes but the session could not be kept: no authenticated state (spec §8).
      return failure(0, MESSAGES.cannotLogIn);
    }
    return { ok: true, data: this.toInfo(session) };
  }

  async signOut(): Promise<void> {
    await this.options.vault.clear();
  }

  /** Forces a refresh so that roles changed on the server reach the session. */
  async reloadSession(): Promise<IpcResult<SessionInfo | null>> {
    const session = await this.loadSession();
    if (!session) return { ok: true, data: null };
    const refreshed = await this.refresh(session, true);
    if ('failure' in refreshed) return refreshed.failure.status === 0 ? refreshed.failure : { ok: true, data: null };
    return { ok: true, data: this.toInfo(refreshed.session) };
  }

  /** Calls one contract operation, typed by it: the answer is checked against its response schema. */
  async call<Id extends OperationId>(operationId: Id, input?: OperationInput<Contract[Id]>): Promise<IpcResult<OperationOutput<Contract[Id]>>>;
  /** The IPC entry: an operation id and an input only checked for their shape so far (the contract checks the rest). */
  async call(operationId: OperationId, input?: AnyOperationInput): Promise<IpcResult<unknown>>;
  async call(operationId: OperationId, input: AnyOperationInput = {}): Promise<IpcResult<unknown>> {
    const operation = contract[operationId] as Operation | undefined;
    if (!operation) return failure(400, `${MESSAGES.invalidIpcCall} : ${String(operationId)}`);
    let token: string | null = null;
    if (needsToken(operation)) {
      const valid = await this.validSession();
      if ('failure' in valid) return valid.failure;
      token = valid.session.accessToken.value;
    }
    const result = await this.send(operationId, input, token);
    if (!result.ok && result.status === 401 && token) return this.expired(result.errorMsg);
    return result;
  }

  /**
   * Opens an operation whose answer is a file the server streams (Operation.answersFile, e.g. targets.export):
   * the input is checked as call() checks it, and a 2xx body comes back as bytes to pipe, never held whole. No
   * overall timeout (a million rows take seconds); `signal` cancels.
   */
  async open(operationId: OperationId, input: AnyOperationInput = {}, signal?: AbortSignal): Promise<IpcResult<AsyncIterable<Uint8Array>>> {
    const operation = contract[operationId] as Operation | undefined;
    if (!operation?.answersFile) return failure(400, `${MESSAGES.invalidIpcCall} : ${String(operationId)}`);
    const valid = await this.validSession();
    if ('failure' in valid) return valid.failure;
    const prepared = this.prepare(operation, input, valid.session.accessToken.value);
    if ('ok' in prepared) return prepared;
    let base: URL;
    try {
      base = new URL(await this.options.baseUrl());
    } catch (error) {
      return failure(0, error instanceof ApiUnavailableError ? error.message : MESSAGES.networkUnreachable);
    }
    try {
      const response = await request(`${base.origin}${base.pathname.replace(/\/$/, '')}${prepared.path}`, {
        method: operation.method as Dispatcher.HttpMethod,
        headers: { accept: 'text/csv, application/json', ...prepared.headers },
        body: prepared.body,
        dispatcher: this.dispatcher,
        signal,
        headersTimeout: this.timeoutMs,
      });
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, data: response.body };
      const text = await response.body.text();
      let data: unknown = text;
      try {
        data = JSON.parse(text);
      } catch {
        // not JSON: the generic message
      }
      const result = answerFailure(response.statusCode, data);
      if (response.statusCode === 401) return this.expired(result.errorMsg);
      return result;
    } catch (error) {
      if (signal?.aborted) throw error;
      return failure(0, isTimeout(error) ? MESSAGES.networkTimeout : MESSAGES.networkUnreachable);
    }
  }

  /**
   * Opens a long-lived stream of the API (GET `path`: the job events) with the bearer token, refreshed first when
   * needed. Signed out, it answers 401 quietly (no 'session:expired': the user asked for nothing); a token the
   * server refuses ends the session as any call would. The body ends when the server ends it, when `signal`
   * aborts, or after `idleMs` without a byte (the server sends heartbeats well within it).
   */
  async openStream(path: string, signal: AbortSignal, idleMs = 60_000): Promise<IpcResult<AsyncIterable<Uint8Array>>> {
    const session = await this.loadSession();
    if (!session) return failure(401, MESSAGES.sessionExpired);
    const valid = this.isFresh(session) ? { session } : await this.refresh(session);
    if ('failure' in valid) return valid.failure;
    let base: URL;
    try {
      base = new URL(await this.options.baseUrl());
    } catch (error) {
      return failure(0, error instanceof ApiUnavailableError ? error.message : MESSAGES.networkUnreachable);
    }
    this.streamDispatcher ??= new Agent({ connect: { timeout: this.timeoutMs }, headersTimeout: this.timeoutMs, bodyTimeout: idleMs });
    try {
      const response = await request(`${base.origin}${base.pathname.replace(/\/$/, '')}${path}`, {
        method: 'GET',
        headers: { accept: 'text/event-stream', authorization: `Bearer ${valid.session.accessToken.value}` },
        dispatcher: this.streamDispatcher,
        signal,
      });
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, data: response.body };
      const text = await response.body.text();
      let data: unknown = text;
      try {
        data = JSON.parse(text);
      } catch {
        // not JSON: the generic message
      }
      const result = answerFailure(response.statusCode, data);
      return response.statusCode === 401 ? this.expired(result.errorMsg) : result;
    } catch (error) {
      if (signal.aborted) throw error;
      return failure(0, isTimeout(error) ? MESSAGES.networkTimeout : MESSAGES.networkUnreachable);
    }
  }

  /**
   * Sends a streamed multipart body (services/upload.ts) to an upload operation, with the bearer token. The body
   * flows to the connection as it is read from disk; `signal` cancels it at any point.
   */
  async uploadStream(method: string, path: string, multipart: MultipartBody, signal?: AbortSignal): Promise<IpcResult<unknown>> {
    const valid = await this.validSession();
    if ('failure' in valid) return valid.failure;
    let base: URL;
    try {
      base = new URL(await this.options.baseUrl());
    } catch (error) {
      return failure(0, error instanceof ApiUnavailableError ? error.message : MESSAGES.networkUnreachable);
    }
    this.uploadDispatcher ??= new Agent({ connect: { timeout: this.timeoutMs }, headersTimeout: 10 * 60_000, bodyTimeout: 10 * 60_000 });
    try {
      const response = await request(`${base.origin}${base.pathname.replace(/\/$/, '')}${path}`, {
        method: method as Dispatcher.HttpMethod,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${valid.session.accessToken.value}`,
          'content-type': multipart.contentType,
          'content-length': String(multipart.length),
        },
        body: Readable.from(multipart.body, { objectMode: false }),
        dispatcher: this.uploadDispatcher,
        signal,
      });
      const text = await response.body.text();
      let data: unknown;
      try {
        data = text ? JSON.parse(text) : undefined;
      } catch {
        data = text;
      }
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, data };
      if (response.statusCode === 401) return this.expired(answerFailure(401, data).errorMsg);
      return answerFailure(response.statusCode, data);
    } catch (error) {
      if (signal?.aborted) throw error;
      return failure(0, isTimeout(error) ? MESSAGES.networkTimeout : MESSAGES.networkUnreachable);
    }
  }

  private async expired(reason: string): Promise<IpcFailure> {
    await this.options.vault.clear();
    this.options.onSessionExpired?.(reason);
    return failure(401, reason);
  }

  private isFresh(session: Session): boolean {
    return Date.parse(session.accessToken.expiresAt) - this.now() > this.refreshMarginMs;
  }

  /** The session with an access token good for at least the margin, refreshing first when needed. */
  private async validSession(): Promise<SessionOrFailure> {
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
  private refresh(stale: Session, force = false): Promise<SessionOrFailure> {
    this.refreshing ??= (async () => {
      try {
        // A caller that read the vault just before another refresh finished holds a used refresh token:
        // take the rotated session instead of presenting the used token again.
        const current = await this.loadSession();
        if (!current) return { failure: failure(401, MESSAGES.sessionExpired) };
        if (!force && current.refreshToken.value !== stale.refreshToken.value && this.isFresh(current)) return { session: current };
        const result = await this.send('auth.refresh', { body: { token: current.refreshToken.value } }, null);
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

  /**
   * Checks the input against the operation's schemas, sends it, and checks a 2xx answer against the response
   * schema: an answer that breaks the contract (a server of another version, a proxy's page) is a failure, not
   * data the screens would misread.
   */
  private async send<Id extends OperationId>(
    operationId: Id,
    input: AnyOperationInput,
    token: string | null,
  ): Promise<IpcResult<OperationOutput<Contract[Id]>>> {
    const operation: Operation = contract[operationId];
    const prepared = this.prepare(operation, input, token);
    if ('ok' in prepared) return prepared;
    // A signed-in create carries its key, so a try whose answer was lost is answered once by the server.
    if (token && sendsIdempotencyKey(operation)) prepared.headers['idempotency-key'] = newIdempotencyKey();
    const answer = await this.http(operation.method, prepared.path, { headers: prepared.headers, body: prepared.body }, isRetryable(operation));
    if (!answer.ok) return answer;
    const checked = operation.response.safeParse(answer.data);
    if (!checked.success) {
      this.options.logger?.warn({ operationId, issues: checked.error.issues.slice(0, 3) }, 'API answer does not match the contract');
      return failure(502, MESSAGES.unexpectedAnswer);
    }
    return { ok: true, data: checked.data as OperationOutput<Contract[Id]> };
  }

  /** The input checked against the operation's schemas, as a path with its query, headers and JSON body. */
  private prepare(
    operation: Operation,
    input: AnyOperationInput,
    token: string | null,
  ): IpcFailure | { path: string; headers: Record<string, string>; body?: string } {
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = operation[part];
      if (!schema) continue;
      const value = input[part];
      const result = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
      if (!result.success) return validationFailure(result.error.issues, part);
    }
    let path: string;
    try {
      path = buildPath(operation.path, input.params as Record<string, unknown> | undefined);
    } catch (error) {
      return failure(400, (error as Error).message);
    }
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
      if (value !== undefined && value !== null && value !== '') search.append(key, String(value));
    }
    const query = search.toString();
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (operation.method !== 'GET' && input.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
    return { path: query ? `${path}?${query}` : path, headers, body };
  }

  private async http(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string },
    retryable = false,
  ): Promise<IpcResult<unknown>> {
    let base: URL;
    try {
      base = new URL(await this.options.baseUrl());
    } catch (error) {
      return failure(0, error instanceof ApiUnavailableError ? error.message : MESSAGES.networkUnreachable);
    }
    // The API may live under a prefix (https://host/api): keep it.
    const url = `${base.origin}${base.pathname.replace(/\/$/, '')}${path}`;
    try {
      const response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers: { accept: 'application/json', ...init.headers },
        body: init.body,
        dispatcher: retryable ? this.retrying : this.dispatcher,
        // Each try is bounded by the agent's timeouts; a retried call by the retries' total too.
        signal: AbortSignal.timeout(retryable ? Math.max(this.timeoutMs, RETRY_BOUNDS.totalMs) : this.timeoutMs),
      });
      const text = await response.body.text();
      let data: unknown = undefined;
      try {
        data = text ? JSON.parse(text) : undefined;
      } catch {
        data = text;
      }
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, data };
      return answerFailure(response.statusCode, data);
    } catch (error) {
      return failure(0, isTimeout(error) ? MESSAGES.networkTimeout : MESSAGES.networkUnreachable);
    }
  }
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string; code?: string } | null)?.name;
  const code = (error as { code?: string } | null)?.code;
  return (
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}
