import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { contract, type Operation, type OperationId } from '@shared/contract';
import type { AnyOperationInput, IpcResult } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import type { ApiSessions } from './api-session';
import { ApiUnavailableError, isTimeout, prepareRequest, type ApiTransport } from './api-transport';
import { answerFailure, failure } from './failures';
import type { MultipartBody } from './upload';

/**
 * The API client's streaming calls (services/api-client.ts): a file the server streams, a long-lived event stream
 * and a streamed upload, each with the session's bearer token and bodies that are never held whole.
 */

/**
 * Opens an operation whose answer is a file the server streams (Operation.answersFile, e.g. targets.export):
 * the input is checked as call() checks it, and a 2xx body comes back as bytes to pipe, never held whole. No
 * overall timeout (a million rows take seconds); `signal` cancels.
 */
export async function openFile(
  transport: ApiTransport,
  sessions: ApiSessions,
  operationId: OperationId,
  input: AnyOperationInput = {},
  signal?: AbortSignal,
): Promise<IpcResult<AsyncIterable<Uint8Array>>> {
  const operation = contract[operationId] as Operation | undefined;
  if (!operation?.answersFile) return failure(400, `${MESSAGES.invalidIpcCall} : ${String(operationId)}`);
  const valid = await sessions.validSession();
  if ('failure' in valid) return valid.failure;
  const prepared = prepareRequest(operation, input, valid.session.accessToken.value);
  if ('ok' in prepared) return prepared;
  let base: URL;
  try {
    base = new URL(await transport.baseUrl());
  } catch (error) {
    return failure(0, error instanceof ApiUnavailableError ? error.message : MESSAGES.networkUnreachable);
  }
  try {
    const response = await request(`${base.origin}${base.pathname.replace(/\/$/, '')}${prepared.path}`, {
      method: operation.method as Dispatcher.HttpMethod,
      headers: { accept: 'text/csv, application/json', ...prepared.headers },
      body: prepared.body,
      dispatcher: transport.dispatcher,
      signal,
      headersTimeout: transport.timeoutMs,
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
    if (response.statusCode === 401) return sessions.expired(result.errorMsg);
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
export async function openStream(
  transport: ApiTransport,
  sessions: ApiSessions,
  path: string,
  signal: AbortSignal,
  idleMs = 60_000,
): Promise<IpcResult<AsyncIterable<Uint8Array>>> {
  const session = await sessions.loadSession();
  if (!session) return failure(401, MESSAGES.sessionExpired);
  const valid = sessions.isFresh(session) ? { session } : await sessions.refresh(session);
  if ('failure' in valid) return valid.failure;
  let base: URL;
  try {
    base = new URL(await transport.baseUrl());
  } catch (error) {
    return failure(0, error instanceof ApiUnavailableError ? error.message : MESSAGES.networkUnreachable);
  }
  transport.streamDispatcher ??= new Agent({ connect: { timeout: transport.timeoutMs }, headersTimeout: transport.timeoutMs, bodyTimeout: idleMs });
  try {
    const response = await request(`${base.origin}${base.pathname.replace(/\/$/, '')}${path}`, {
      method: 'GET',
      headers: { accept: 'text/event-stream', authorization: `Bearer ${valid.session.accessToken.value}` },
      dispatcher: transport.streamDispatcher,
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
    return response.statusCode === 401 ? sessions.expired(result.errorMsg) : result;
  } catch (error) {
    if (signal.aborted) throw error;
    return failure(0, isTimeout(error) ? MESSAGES.networkTimeout : MESSAGES.networkUnreachable);
  }
}

/**
 * Sends a streamed multipart body (services/upload.ts) to an upload operation, with the bearer token. The body
 * flows to the connection as it is read from disk; `signal` cancels it at any point.
 */
export async function uploadStream(
  transport: ApiTransport,
  sessions: ApiSessions,
  method: string,
  path: string,
  multipart: MultipartBody,
  signal?: AbortSignal,
): Promise<IpcResult<unknown>> {
  const valid = await sessions.validSession();
  if ('failure' in valid) return valid.failure;
  let base: URL;
  try {
    base = new URL(await transport.baseUrl());
  } catch (error) {
    return failure(0, error instanceof ApiUnavailableError ? error.message : MESSAGES.networkUnreachable);
  }
  transport.uploadDispatcher ??= new Agent({ connect: { timeout: transport.timeoutMs }, headersTimeout: 10 * 60_000, bodyTimeout: 10 * 60_000 });
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
      dispatcher: transport.uploadDispatcher,
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
    if (response.statusCode === 401) return sessions.expired(answerFailure(401, data).errorMsg);
    return answerFailure(response.statusCode, data);
  } catch (error) {
    if (signal?.aborted) throw error;
    return failure(0, isTimeout(error) ? MESSAGES.networkTimeout : MESSAGES.networkUnreachable);
  }
}
