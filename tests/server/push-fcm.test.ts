import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fcmProvider } from '../../src-server/features/push/providers/fcm';

/**
 * FCM HTTP v1 against a local fake of Google's two endpoints, which checks the request shapes: the OAuth
 * token exchange (a JWT signed with the service account's key, the messaging scope) and messages:send (bearer, one
 * token per message, notification and data). Never the real service.
 */

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM_PUBLIC = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const PEM_PRIVATE = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const DEAD = new Set(['dead-token', 'gone-token']);

let server: Server;
let base = '';
const exchanges: Record<string, string>[] = [];
const sends: { authorization: string | undefined; path: string; body: any }[] = [];

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const text = await read(request);
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.url === '/token') {
      const form = Object.fromEntries(new URLSearchParams(text));
      exchanges.push(form);
      const { payload } = await jwtVerify(form.assertion, await importSPKI(PEM_PUBLIC, 'RS256'), { audience: `${base}/token` });
      expect(payload).toMatchObject({
        iss: 'push@demo-project.iam.gserviceaccount.com',
        scope: 'https://www.googleapis.com/auth/firebase.messaging',
      });
      return reply(200, { access_token: 'ya29.fake', expires_in: 3600, token_type: 'Bearer' });
    }
    const body = JSON.parse(text);
    sends.push({ authorization: request.headers.authorization, path: request.url ?? '', body });
    if (request.headers.authorization !== 'Bearer ya29.fake') return reply(401, { error: { status: 'UNAUTHENTICATED' } });
    const token = body.message?.token as string;
    if (DEAD.has(token)) return reply(404, { error: { code: 404, status: 'NOT_FOUND', details: [{ errorCode: 'UNREGISTERED' }] } });
    if (token === 'bad-payload') return reply(400, { error: { code: 400, status: 'FAILED_PRECONDITION' } });
    return reply(200, { name: `projects/demo-project/messages/${sends.length}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('FCM HTTP v1 provider', () => {
  it('exchanges the service account for a token once, sends one request per device, and reports dead tokens', async () => {
    const provider = fcmProvider({
      account: {
        project_id: 'demo-project',
        client_email: 'push@demo-project.iam.gserviceaccount.com',
        private_key: PEM_PRIVATE,
        token_uri: `${base}/token`,
      },
      endpoint: base,
      concurrency: 3,
    });
    const notification = { title: 'Titre', body: 'Texte', navigation: 'app://article/12', customId: 'custom01' };
    const message = (userId: number, tokens: string[]) => ({
      campaignId: 7,
      userId,
      tokens: tokens.map((token) => ({ platform: 'iOS', token })),
      notification,
    });
    const deliveries = await provider.send([
      message(1, ['a-token', 'dead-token']),
      message(2, ['gone-token']),
      message(3, []),
      message(4, ['bad-payload']),
      message(5, ['b-token']),
    ]);
    expect(deliveries).toEqual([
      { userId: 1, status: 'sent', detail: 'invalid token', invalidTokens: ['dead-token'] },
      { userId: 2, status: 'failed', detail: 'invalid token', invalidTokens: ['gone-token'] },
      { userId: 3, status: 'no-token', invalidTokens: [] },
      { userId: 4, status: 'failed', detail: '400 FAILED_PRECONDITION', invalidTokens: [] },
      { userId: 5, status: 'sent', detail: undefined, invalidTokens: [] },
    ]);
    // A second batch reuses the access token.
    await provider.send([message(6, ['c-token'])]);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0].grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(sends).toHaveLength(6);
    for (const send of sends) {
      expect(send.path).toBe('/v1/projects/demo-project/messages:send');
      expect(send.authorization).toBe('Bearer ya29.fake');
      expect(send.body).toEqual({
        message: {
          token: expect.any(String),
          notification: { title: 'Titre', body: 'Texte' },
          data: { navigation: 'app://article/12', customId: 'custom01', campaignId: '7' },
        },
      });
    }
  });
});
