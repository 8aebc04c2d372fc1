import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Operation } from '@shared/contract';
import { MESSAGES } from '@shared/messages';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 51 item 7: an operation answering a file (a CSV export, a stored medium) is not replayed from the
 * Idempotency-Key store, which keeps JSON answers only: a key sent to it is refused (422) before any work, on the
 * first call as on a repeat, rather than a 500 on the repeat.
 */
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn(['ADMIN'])).accessToken.value;
});
afterAll(() => server?.close());

const fileOperations = Object.entries(contract).filter(([, operation]) => {
  const { answersFile, answersMedia } = operation as Operation;
  return Boolean(answersFile || answersMedia);
});

describe('Idempotency-Key on operations that answer a file', () => {
  it('refuses a key on POST /inventory/export, first call and repeat alike, and exports without one', async () => {
    const keyed = { token, body: {}, headers: { 'idempotency-key': 'export-inventory-0001' } };
    const first = await server.request('POST', '/inventory/export', keyed);
    const again = await server.request('POST', '/inventory/export', keyed);
    for (const answer of [first, again]) {
      expect(answer).toMatchObject({ status: 422, body: { errorMsg: MESSAGES.idempotencyKeyOnFile } });
    }
    const plain = await server.request('POST', '/inventory/export', { token, body: {} });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toContain('text/csv');
  });

  it('refuses a key on POST /targets/export', async () => {
    const keyed = { token, body: {}, headers: { 'idempotency-key': 'export-targets-0001' } };
    for (let round = 0; round < 2; round += 1) {
      expect(await server.request('POST', '/targets/export', keyed)).toMatchObject({
        status: 422,
        body: { errorMsg: MESSAGES.idempotencyKeyOnFile },
      });
    }
    expect((await server.request('POST', '/targets/export', { token, body: {} })).status).toBe(200);
  });

  it('covers every operation of the contract that answers a file', async () => {
    // The list the rule reads: a new file-answering operation gets it from its contract flag.
    expect(fileOperations.map(([id]) => id).sort()).toEqual(['inventory.export', 'storage.media', 'targets.export']);
    const media = await server.request('GET', '/cdn/assets/adverts/none.png', { headers: { 'idempotency-key': 'media-key-0001' } });
    expect(media).toMatchObject({ status: 422, body: { errorMsg: MESSAGES.idempotencyKeyOnFile } });
  });
});
