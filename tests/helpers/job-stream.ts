import { expect } from 'vitest';
import type { JobEvent } from '@shared/jobs';

/**
 * GET /jobs/events opened as main opens it (bearer access token): `next()` answers the next job event (of `kind`
 * when given; the test's timeout bounds the wait), `ended()` resolves when the server ends the stream.
 */
export async function followJobEvents(url: string, token: string, kind?: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/jobs/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(): Promise<JobEvent> {
      for (;;) {
        const match = /event: job\ndata: (.*)\n\n/.exec(buffer);
        if (match) {
          buffer = buffer.slice(match.index + match[0].length);
          const event = JSON.parse(match[1]!) as JobEvent;
          if (kind === undefined || event.kind === kind) return event;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    async ended(): Promise<void> {
      while (!(await reader.read()).done);
    },
    close: () => controller.abort(),
  };
}
