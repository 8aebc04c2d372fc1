import { contract, needsToken, type Contract, type Operation, type OperationId, type OperationInput, type OperationOutput } from '@shared/contract';
import type { AnyOperationInput, IpcResult, SessionInfo } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { ApiSessions } from './api-session';
import { openFile, openStream, uploadStream } from './api-streams';
import { ApiTransport, prepareRequest } from './api-transport';
import { failure } from './failures';
import { isRetryable, newIdempotencyKey, sendsIdempotencyKey } from './retry-policy';
import type { SessionVault } from './session-vault';
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

/**
 * The API client of the main process: one generic path for every contract operation, the bearer token from the
 * vault, a refresh shortly before the access token expires (one in flight, shared), and typed failures. The
 * connections are in api-transport.ts, the session in api-session.ts, the streaming calls in api-streams.ts.
 */
export class ApiClient {
  private readonly transport: ApiTransport;
  private readonly sessions: ApiSessions;

  constructor(private readonly options: ApiClientOptions) {
    this.transport = new ApiTransport(options.baseUrl, options.timeoutMs ?? 15_000);
    this.sessions = new ApiSessions(options, options.refreshMarginMs ?? 60_000, options.now ?? Date.now, (token) =>
      this.send('auth.refresh', { body: { token } }, null),
    );
  }

  async close(): Promise<void> {
    await this.transport.close();
  }

  async sessionInfo(): Promise<SessionInfo | null> {
    const session = await this.sessions.loadSession();
    return session ? this.sessions.toInfo(session) : null;
  }

  /**
   * The signed-in user as main knows it, for what main keeps per user (local drafts): the API that issued the
   * session and its tokens, which such data must never hold. Never read from the renderer.
   */
  async account(): Promise<{ userId: number; api: string; secrets: string[] } | null> {
    const session = await this.sessions.loadSession();
    if (!session) return null;
    return { userId: session.userId, api: await this.sessions.identity(), secrets: [session.accessToken.value, session.refreshToken.value] };
  }

  async signIn(username: string, password: string): Promise<IpcResult<SessionInfo>> {
    // The device token of an earlier sign-in of this username to this API (a missing keychain entry is no token).
    const deviceKey = `${await this.sessions.identity().catch(() => '')}\u0000${username.trim().toLowerCase()}`;
    const deviceToken = (await this.options.vault.loadDeviceToken(deviceKey).catch(() => null)) ?? undefined;
    const result = await this.send('auth.signIn', { body: { username, password, deviceToken } }, null);
    if (!result.ok) return result;
    const { deviceToken: issued, ...session } = result.data;
    // Losing it costs only the known-device lane: the sign-in itself succeeded.
    await this.options.vault.saveDeviceToken(deviceKey, issued).catch(() => undefined);
    try {
      await this.sessions.saveSession(session);
    } catch {
      // The server said yes but the session could not be kept: no authenticated state (spec §8).
      return failure(0, MESSAGES.cannotLogIn);
    }
    return { ok: true, data: this.sessions.toInfo(session) };
  }

  async signOut(): Promise<void> {
    await this.options.vault.clear();
  }

  /** Forces a refresh so that roles changed on the server reach the session. */
  async reloadSession(): Promise<IpcResult<SessionInfo | null>> {
    const session = await this.sessions.loadSession();
    if (!session) return { ok: true, data: null };
    const refreshed = await this.sessions.refresh(session, true);
    if ('failure' in refreshed) return refreshed.failure.status === 0 ? refreshed.failure : { ok: true, data: null };
    return { ok: true, data: this.sessions.toInfo(refreshed.session) };
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
      const valid = await this.sessions.validSession();
      if ('failure' in valid) return valid.failure;
      token = valid.session.accessToken.value;
    }
    const result = await this.send(operationId, input, token);
    if (!result.ok && result.status === 401 && token) return this.sessions.expired(result.errorMsg);
    return result;
  }

  /**
   * Opens an operation whose answer is a file the server streams (Operation.answersFile, e.g. targets.export):
   * see api-streams.ts.
   */
  open(operationId: OperationId, input: AnyOperationInput = {}, signal?: AbortSignal): Promise<IpcResult<AsyncIterable<Uint8Array>>> {
    return openFile(this.transport, this.sessions, operationId, input, signal);
  }

  /** Opens a long-lived stream of the API (GET `path`: the job events): see api-streams.ts. */
  openStream(path: string, signal: AbortSignal, idleMs?: number): Promise<IpcResult<AsyncIterable<Uint8Array>>> {
    return openStream(this.transport, this.sessions, path, signal, idleMs);
  }

  /** Sends a streamed multipart body (services/upload.ts) to an upload operation: see api-streams.ts. */
  uploadStream(method: string, path: string, multipart: MultipartBody, signal?: AbortSignal): Promise<IpcResult<unknown>> {
    return uploadStream(this.transport, this.sessions, method, path, multipart, signal);
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
    const prepared = prepareRequest(operation, input, token);
    if ('ok' in prepared) return prepared;
    // A signed-in create carries its key, so a try whose answer was lost is answered once by the server.
    if (token && sendsIdempotencyKey(operation)) prepared.headers['idempotency-key'] = newIdempotencyKey();
    const answer = await this.transport.http(
      operation.method,
      prepared.path,
      { headers: prepared.headers, body: prepared.body },
      isRetryable(operation),
    );
    if (!answer.ok) return answer;
    const checked = operation.response.safeParse(answer.data);
    if (!checked.success) {
      this.options.logger?.warn({ operationId, issues: checked.error.issues.slice(0, 3) }, 'API answer does not match the contract');
      return failure(502, MESSAGES.unexpectedAnswer);
    }
    return { ok: true, data: checked.data as OperationOutput<Contract[Id]> };
  }
}
