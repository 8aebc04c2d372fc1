import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_MESSAGES } from '@shared/messages';
import { defaultServerConfig } from '../../src-server/context';
import { startTestServer, TEST_PASSWORD, type TestServer } from '../helpers/server';

/**
 * GET /jobs/events (which also carries presence) is capped per account and per instance (docs/security.md,
 * "Streams and slow requests"): one token cannot take every socket of the process, and the others still sign in.
 * PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
const METRICS_TOKEN = 'metrics-token-of-at-least-32-characters';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { maxJobStreams: 8, metricsToken: METRICS_TOKEN } });
});
afterAll(() => server?.close());

const opened: AbortController[] = [];
afterAll(() => opened.forEach((controller) => controller.abort()));

/** Opens a stream as main does; a refused one is read whole, an accepted one stays open until `close()`. */
async function open(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/jobs/events`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  if (response.status !== 200)
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json(), close: () => undefined };
  opened.push(controller);
  // The first bytes (': connected') say the server counted it.
  await response.body!.getReader().read();
  return { status: 200, retryAfter: null, body: undefined, close: () => controller.abort() };
}

async function streamsGauge(): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  return Number(/^backoffice_job_event_streams (\d+)$/m.exec(text)?.[1]);
}

async function until(check: () => Promise<boolean>) {
  for (let tries = 0; tries < 100 && !(await check()); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('job-event streams are capped', () => {
  it('per account: 20 opened at once with one token, 5 get through, the others 429; another account signs in', async () => {
    const cap = defaultServerConfig.maxJobStreamsPerAccount;
    expect(cap).toBe(5);
    const { accessToken } = await server.signIn(['SALES']);
    const answers = await Promise.all(Array.from({ length: 20 }, () => open(accessToken.value)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(cap);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(20 - cap);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.retryAfter).toBe('15');
      expect(answer.body).toEqual({ errorMsg: STREAM_MESSAGES.tooManyStreamsForAccount(cap) });
    }
    expect(refused[0]!.body.errorMsg).toBe(
      'Trop de connexions au suivi des tâches pour ce compte (5 au plus) : fermez des fenêtres ou réessayez dans un instant.',
    );
    expect(await streamsGauge()).toBe(cap);

    // Another account signs in and opens its own stream meanwhile.
    const { email } = await server.createAccount(['CSM']);
    const signIn = await server.request('POST', '/authenticate', { body: { username: email, password: TEST_PASSWORD } });
    expect(signIn.status).toBe(200);
    const other = await open(signIn.body.accessToken.value);
    expect(other.status).toBe(200);

    // A window closed gives its place back.
    answers.find((answer) => answer.status === 200)!.close();
    await until(async () => (await streamsGauge()) === cap);
    expect((await open(accessToken.value)).status).toBe(200);
    expect((await open(accessToken.value)).status).toBe(429);
    for (const answer of answers) answer.close();
    other.close();
    await until(async () => (await streamsGauge()) === 1);
  });

  it('per instance: past maxJobStreams, 503 with Retry-After and its message', async () => {
    for (const controller of opened.splice(0)) controller.abort();
    await until(async () => (await streamsGauge()) === 0);
    const tokens = await Promise.all([1, 2, 3].map(async () => (await server.signIn(['CSM'])).accessToken.value));
    for (const token of tokens.slice(0, 2)) for (let index = 0; index < 4; index += 1) expect((await open(token)).status).toBe(200);
    expect(await streamsGauge()).toBe(8);
    const refused = await open(tokens[2]!);
    expect(refused).toMatchObject({ status: 503, retryAfter: '15', body: { errorMsg: STREAM_MESSAGES.tooManyStreams } });
    expect(refused.body.errorMsg).toBe('Le serveur suit déjà trop de connexions. Réessayez dans quelques secondes.');
    opened[0]!.abort();
    await until(async () => (await streamsGauge()) === 7);
    expect((await open(tokens[2]!)).status).toBe(200);
  });
});
