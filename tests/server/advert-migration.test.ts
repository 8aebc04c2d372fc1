import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/** The migration page's calls (adverts-articles.md §2.1, §3 legacy mapping). PGlite, or PostgreSQL with TEST_DATABASE_URL. */

let server: TestServer;
let csm: string;
let sales: string;

beforeAll(async () => {
  server = await startTestServer();
  csm = (await server.signIn(['CSM'])).accessToken.value;
  sales = (await server.signIn(['SALES'])).accessToken.value;
});
afterAll(() => server?.close());

async function insertLegacy(table: 'adverts' | 'articles', name: string, type: string | null, data: Record<string, unknown>): Promise<number> {
  const result = (await server.database.db.execute(
    sql`INSERT INTO ${sql.raw(table)} (name, type, model, created_at, updated_at, data) VALUES (${name}, ${type}, 'v1', 1700000000, 1700000000, ${JSON.stringify(data)}::jsonb) RETURNING id`,
  )) as unknown as { rows: { id: number }[] };
  return result.rows[0].id;
}

describe('/adverts/migration', () => {
  it('lists the items in an older layout with their mapped type, and migrates them with the legacy mapping', async () => {
    const video = await insertLegacy('adverts', 'Ancienne vidéo', null, {
      timeline: true,
      post: { video: 'https://cdn.test/v.mp4' },
      document: { title: 'Titre ancien', author: 'Labo' },
    });
    const story = await insertLegacy('articles', 'Ancienne story', null, { category: 'STORY', document: { title: 'Une story' } });
    const listed = await server.request('GET', '/adverts/migration', { token: sales });
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(2);
    expect(listed.body.items).toEqual([
      { kind: 'advert', id: video, name: 'Ancienne vidéo', type: null, model: 'v1', nestedDocument: true, mappedType: 'video' },
      { kind: 'article', id: story, name: 'Ancienne story', type: null, model: 'v1', nestedDocument: true, mappedType: 'story' },
    ]);

    expect((await server.request('POST', '/adverts/migration', { token: sales, body: { items: [{ kind: 'advert', id: video }] } })).status).toBe(403);
    const run = await server.request('POST', '/adverts/migration', {
      token: csm,
      body: {
        items: [
          { kind: 'advert', id: video },
          { kind: 'article', id: story },
          { kind: 'advert', id: 999999 },
        ],
      },
    });
    expect(run.status).toBe(200);
    expect(run.body.migrated).toBe(2);
    expect(run.body.failed).toEqual([expect.objectContaining({ kind: 'advert', id: 999999 })]);

    const advert = await server.request('GET', `/v2/advert/${video}`, { token: csm });
    expect(advert.body).toMatchObject({ model: 'latest', type: 'video', title: 'Titre ancien', author: 'Labo', video: 'https://cdn.test/v.mp4' });
    const article = await server.request('GET', `/article/${story}`, { token: csm });
    expect(article.body).toMatchObject({ model: 'latest', type: 'story', title: 'Une story' });
    expect((await server.request('GET', '/adverts/migration', { token: csm })).body).toEqual({ items: [], total: 0 });
    // The change is in the item's history.
    const history = await server.request('GET', `/advert/${video}/history`, { token: csm });
    expect(history.body[0]).toMatchObject({ action: 'modelMigration' });
  });
});
