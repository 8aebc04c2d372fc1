import type { IpcResult } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { decodePath, readBody, sameSecret, sendJson, type HostRequest } from './http';

const MAX_IPC_BODY = 280 * 1024 * 1024;
export const IPC_PREFIX = '/__ipc/';

export type Dispatch = (hostRequest: HostRequest, channel: string, payload: unknown) => Promise<IpcResult<unknown>>;

/**
 * The IPC channels over HTTP: POST /__ipc/<channel> with `{ payload }`, only from pages this host served
 * (our Origin or `Sec-Fetch-Site: same-origin`, the per-launch secret in a header a cross-site form cannot set),
 * JSON only. A page of ours with a stale secret (the host restarted) is told its session is unknown (401).
 */
export function createIpcOverHttp(options: { secret: string; dispatch: Dispatch }) {
  return async function serveIpc(hostRequest: HostRequest): Promise<void> {
    const { request, response, url, ownPage } = hostRequest;
    if (request.method !== 'POST') return sendJson(response, 405, { ok: false, status: 405, errorMsg: MESSAGES.invalidIpcCall });
    if (!ownPage) return sendJson(response, 403, { ok: false, status: 403, errorMsg: MESSAGES.userNotAllowed });
    // Our own page with another secret: a page of an earlier launch of this host, whose sessions are gone with it.
    // Refused as an unknown session (HTTP 401), so the page leads to sign-in again instead of a role refusal.
    if (!sameSecret(request.headers['x-backoffice-secret'] as string | undefined, options.secret)) {
      return sendJson(response, 401, { ok: false, status: 401, errorMsg: MESSAGES.sessionExpired });
    }
    if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      return sendJson(response, 415, { ok: false, status: 415, errorMsg: MESSAGES.invalidIpcCall });
    }
    let payload: unknown;
    try {
      payload = (JSON.parse(await readBody(request, MAX_IPC_BODY)) as { payload?: unknown }).payload;
    } catch (error) {
      const tooLarge = (error as Error).message === MESSAGES.payloadTooLarge;
      return sendJson(response, 400, { ok: false, status: 0, errorMsg: tooLarge ? MESSAGES.payloadTooLarge : MESSAGES.invalidJson });
    }
    const channel = decodePath(url.pathname.slice(IPC_PREFIX.length));
    if (channel === null) return sendJson(response, 400, { ok: false, status: 400, errorMsg: MESSAGES.badUrl });
    sendJson(response, 200, await options.dispatch(hostRequest, channel, payload));
  };
}
