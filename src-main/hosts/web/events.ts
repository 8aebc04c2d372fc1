import type { IncomingMessage, ServerResponse } from 'node:http';
import type { IpcEvent, IpcEventPayload } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { sameSecret, sendJson, type HostRequest } from './http';

/**
 * Server-sent events: main's pushes to the pages (session expired), the EventSource of the web bridge. Each
 * stream belongs to the browser session that opened it (null: signed out), so one browser's expiry is not
 * announced to another.
 */
export function createEventStreams(options: { secret: string; sessionOf: (request: IncomingMessage) => string | null }) {
  const streams = new Map<ServerResponse, string | null>();
  const send = <E extends IpcEvent>(stream: ServerResponse, event: E, payload: IpcEventPayload<E>) =>
    stream.write(`event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  return {
    serve({ request, response, url, foreign }: HostRequest): void {
      if (foreign || !sameSecret(url.searchParams.get('secret'), options.secret))
        return sendJson(response, 403, { errorMsg: MESSAGES.userNotAllowed });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      response.write(': connected\n\n');
      streams.set(response, options.sessionOf(request));
      request.on('close', () => streams.delete(response));
    },
    /** To the pages of one browser session. */
    emitTo<E extends IpcEvent>(sessionId: string, event: E, payload: IpcEventPayload<E>): void {
      for (const [stream, owner] of streams) if (owner === sessionId) send(stream, event, payload);
    },
    /** To every page. */
    emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
      for (const stream of streams.keys()) send(stream, event, payload);
    },
    close(): void {
      for (const stream of streams.keys()) stream.end();
      streams.clear();
    },
  };
}
