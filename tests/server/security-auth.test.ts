import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import type { App } from '../../src-server/app';
import { ManualClock } from '../helpers/clock';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/** Security findings of issue 13 on sign-in, sessions and password links, each reproduced with real requests. */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serverWith(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer({ clock: new ManualClock(Date.parse('2026-11-22T09:00:00Z')), ...options });
  servers.push(server);
  return server;
}

/** Counts the requests that reached the sign-in handler's stage (after body validation). */
function countSignIns(app: App, seen: { count: number }) {
  app.addHook('preHandler', async (request) => {
    if (request.routeOptions.url === '/authenticate') seen.count += 1;
  });
}

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('item 1: the sign-in limit holds under parallel requests', () => {
  for (const parallel of [100, 500]) {
    it(`checks at most the limit (5) of ${parallel} parallel guesses for one account from one address; the right password sent last gets 429`, async () => {
      const seen = { count: 0 };
      const server = await serverWith({ beforeListen: (app) => countSignIns(app, seen) });
      const { email } = await server.createAccount(['CSM']);
      const guesses = Array.from({ length: parallel - 1 }, (_, i) => server.request('POST', '/authenticate', { body: { username: email, password: `wrong-guess-${i}` } }));
      await until(() => seen.count >= parallel - 1);
      const right = await server.request('POST', '/authenticate', { body: { username: email, password: TEST_PASSWORD } });
      const statuses = (await Promise.all(guesses)).map((response) => response.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(parallel - 1 - 5);
      expect(right.status).toBe(429);
      expect(right.body.errorMsg).toBe(MESSAGES.tooManyAttempts);
    }, 120_000);
  }
});
