import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn(['CSM_LEAD'])).accessToken.value;
});
afterAll(() => server?.close());

const createGroup = (name: string, key?: string) =>
  server.request('POST', '/v2/group', { token, body: { name, relationships: [] }, headers: key ? { 'idempotency-key': key } : {} });

async function groupsNamed(name: string): Promise<number> {
  const { body } = await server.request('GET', `/v2/groups?term=${encodeURIComponent(name)}`, { token });
  return (body.items as { name: string }[]).filter((group) => group.name === name).length;
}

describe('Idempotency-Key on creates', () => {
  it('makes one record when a create is sent again with its key, and answers the first answer again', async () => {
    const first = await createGroup('Relance cardio', 'create-group-0001');
    const again = await createGroup('Relance cardio', 'create-group-0001');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await groupsNamed('Relance cardio')).toBe(1);
  });

  it('makes two records without a key', async () => {
    expect((await createGroup('Sans clé')).status).toBe(201);
    expect((await createGroup('Sans clé')).status).toBe(201);
    expect(await groupsNamed('Sans clé')).toBe(2);
  });

  it('refuses a key reused for another request, and a malformed key', async () => {
    expect((await createGroup('Premier', 'reused-key-0001')).status).toBe(201);
    const other = await createGroup('Second', 'reused-key-0001');
    expect(other).toMatchObject({ status: 422, body: { errorMsg: MESSAGES.idempotencyKeyReused } });
    expect(await groupsNamed('Second')).toBe(0);
    const malformed = await createGroup('Troisième', 'short');
    expect(malformed).toMatchObject({ status: 400, body: { errorMsg: MESSAGES.invalidIdempotencyKey } });
  });

  it('lets a refused create be sent again with the same key once corrected', async () => {
    const refused = await server.request('POST', '/v2/group', {
      token,
      body: { name: '', relationships: [] },
      headers: { 'idempotency-key': 'corrected-0001' },
    });
    expect(refused.status).toBe(400);
    // The fingerprint covers the body: a corrected body is another request, but the key is free again.
    expect((await createGroup('Corrigé', 'corrected-0001')).status).toBe(201);
  });

  it('keeps keys per caller: another account using the same key makes its own record', async () => {
    const other = (await server.signIn(['CSM_LEAD'])).accessToken.value;
    expect((await createGroup('Partagé', 'per-caller-0001')).status).toBe(201);
    const theirs = await server.request('POST', '/v2/group', {
      token: other,
      body: { name: 'Partagé', relationships: [] },
      headers: { 'idempotency-key': 'per-caller-0001' },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(await groupsNamed('Partagé')).toBe(2);
  });
});
