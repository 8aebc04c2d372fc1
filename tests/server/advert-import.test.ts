import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { startTestServer, type TestServer } from '../helpers/server';

/** CSV import of adverts in one batch (adverts-articles.md §2.1, §5): whole or nothing. PGlite, or PostgreSQL with TEST_DATABASE_URL. */

let server: TestServer;
let csm: string;
let sales: string;

beforeAll(async () => {
  server = await startTestServer();
  csm = (await server.signIn(['CSM'])).accessToken.value;
  sales = (await server.signIn(['SALES'])).accessToken.value;
});
afterAll(() => server?.close());

const rows = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => ({
    name: `${prefix} ${index + 1}`,
    type: 'post',
    weight: String((index % 10) + 1),
    isFree: index % 2 ? 'yes' : '0',
    autoStartAt: '1893456000',
  }));

async function countNamed(prefix: string): Promise<number> {
  const listed = await server.request('POST', '/adverts', { token: csm, body: { term: prefix, limit: 1 } });
  return listed.body.total;
}

describe('advert CSV import (POST /advert/import)', () => {
  it('creates every row in one call, unpublished, with the CSV values parsed', { timeout: 120_000 }, async () => {
    const answer = await server.request('POST', '/advert/import', { token: csm, body: { rows: rows('Lot complet', 3000) } });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    expect(answer.body.imported).toBe(3000);
    expect(answer.body.errors).toEqual([]);
    expect(await countNamed('Lot complet')).toBe(3000);
    const second = await server.request('GET', `/v2/advert/${answer.body.ids[1]}`, { token: csm });
    expect(second.body).toMatchObject({ name: 'Lot complet 2', weight: 2, isFree: true, published: false, autoStartAt: 1893456000 });
  });

  it('imports nothing when any row is wrong, and names every wrong row', async () => {
    const sent = rows('Lot fautif', 300);
    sent[199] = { ...sent[199], weight: 'lourd' };
    sent[249] = { name: '', type: 'inconnu' } as never;
    sent[279] = { ...sent[279], maxViews: '2000000' } as never;
    const answer = await server.request('POST', '/advert/import', { token: csm, body: { rows: sent } });
    expect(answer.status).toBe(200);
    expect(answer.body.imported).toBe(0);
    expect(answer.body.errors).toEqual([
      { line: 201, message: "Poids d'affichage : nombre entier attendu" },
      { line: 251, message: 'Type : inconnu (inconnu)' },
      { line: 251, message: MESSAGES.advertNameRequired },
      expect.objectContaining({ line: 251 }),
      // Each field named by its editor label, never by its column key, once (docs/content.md, "The editor").
      { line: 281, message: 'Vues max par utilisateur : 1000000 au plus' },
    ]);
    expect(await countNamed('Lot fautif')).toBe(0);
  });

  it('refuses more than 5,000 rows, and SALES', async () => {
    expect((await server.request('POST', '/advert/import', { token: csm, body: { rows: rows('Trop', 5001) } })).status).toBe(400);
    const refused = await server.request('POST', '/advert/import', { token: sales, body: { rows: rows('Vente', 1) } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMsg).toBe('User not allowed');
  });
});
