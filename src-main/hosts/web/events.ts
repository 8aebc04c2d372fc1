import type { ServerResponse } from 'node:http';
import type { IpcEvent, IpcEventPayload } from '@shared/ipc';
import { MESSAGES } from '@shared/messages';
import { sameSecret, sendJson, type HostRequest } from './http';

/** Server-sent events: main's pushes to the pages (session expired), the EventSource of the web bridge. */
export function createEventStreams(options: { secret: string }) {
  const streams = new Set<ServerResponse>();
  return {
    serve({ request, response, url, foreign }: HostRequest): void {
      if (foreign || !sameSecret(url.searchParams.get('secret'), options.secret)) return sendJson(response, 403, { errorMsg: MESSAGES.userNotAllowed });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      response.write(': connected\n\n');
      streams.add(response);
      request.on('close', () => streams.delete(response));
    },
    emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
      const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
      for (const stream of streams) stream.write(frame);
    },
    close(): void {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
