import { Agent, request, errors as undiciErrors, type Dispatcher } from 'undici';
import { buildPath, type Operation } from '@shared/contract';
import type { AnyOperationInput, IpcFailure, IpcResult } from '@shared/ipc';
import { DESKTOP_MESSAGES, MESSAGES } from '@shared/messages';
import { answerFailure, failure, validationFailure } from './failures';
import { retryingDispatcher, RETRY_BOUNDS } from './retry-policy';
import { isAcceptableApiUrl } from './settings';

/**
 * The HTTP side of the API client (services/api-client.ts): where the API is, the requests an operation's input
 * makes, the connections they go over, and the failures a network gives.
 */

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

/** A request of an operation: its path with its query, its headers and its JSON body. */
export interface PreparedRequest {
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The input checked against the operation's schemas, as a path with its query, headers and JSON body. */
export function prepareRequest(operation: Operation, input: AnyOperationInput, token: string | null): IpcFailure | PreparedRequest {
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

/** The connections to the API: one agent for calls (and its retrying twin), one for uploads, one for streams. */
export class ApiTransport {
  readonly dispatcher: Dispatcher;
  /** The same connections, trying reads and keyed creates again (services/retry-policy.ts). */
  readonly retrying: Dispatcher;
  /** Uploads of large files: no overall time limit (the user may cancel), only a long stall ends them. */
  uploadDispatcher: Dispatcher | null = null;
  /** Long-lived streams (job events): no overall limit, only a silence longer than the server's heartbeats. */
  streamDispatcher: Dispatcher | null = null;

  constructor(
    /** Read on every call (ApiClientOptions.baseUrl). */
    readonly baseUrl: () => string | Promise<string>,
    readonly timeoutMs: number,
  ) {
    this.dispatcher = new Agent({ connect: { timeout: this.timeoutMs }, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs });
    this.retrying = retryingDispatcher(this.dispatcher);
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
    await this.uploadDispatcher?.close();
    await this.streamDispatcher?.destroy();
  }

  async http(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string },
    retryable = false,
  ): Promise<IpcResult<unknown>> {
    let base: URL;
    try {
      base = new URL(await this.baseUrl());
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

export function isTimeout(error: unknown): boolean {
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
