import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Taking an advert offline never runs the checks for putting it online (adverts-articles.md §5, issue 53 item 3):
 * a published advert that the online checks would refuse now (an audience no longer expert) is unpublished by each of the three calls that can do it.
 */

let server: TestServer;
let csm: string;
let lead: string;

beforeAll(async () => {
  server = await startTestServer();
  csm = (await server.signIn(['CSM'])).accessToken.value;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
});
afterAll(() => server?.close());

const complete = { logo: 'https://cdn.test/l.png', images: ['https://cdn.test/i.png'], author: 'Labo', source: 'https://labo.test', title: 'Titre' };

/** A published post with an expert audience, then made invalid for publication behind the server's back. */
async function publishedThenInvalid(): Promise<{ id: number; version: number }> {
  await server.request('POST', '/population/users', {
    token: (await server.signIn(['ADMIN'])).accessToken.value,
    body: [{ externalId: 'x', roles: ['ROLE_EXPERT'] }],
  });
  const role = await server.request('GET', '/search?term=ROLE_EXPERT&label=Role&isGroup=true', { token: lead });
  const audience = await server.request('POST', '/audience', {
    token: lead,
    body: { name: `Experts ${Math.random()}`, relationships: [{ node: { label: 'Role', id: role.body[0].id } }] },
  });
  expect(audience.status, JSON.stringify(audience.body)).toBe(201);
  const created = await server.request('POST', '/advert/create', {
    token: csm,
    body: { advert: { name: 'À dépublier', type: 'post', ...complete }, audienceIds: [audience.body.id] },
  });
  const published = await server.request('PUT', `/v2/advert/${created.body.id}/publish`, { token: csm, body: { publish: true, updateDates: false } });
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  // The audience no longer targets experts: the online checks would refuse it now.
  await server.database.db.execute(sql`DELETE FROM relationships WHERE audience_id = ${audience.body.id}`);
  const republish = await server.request('PUT', `/v2/advert/${created.body.id}/publish`, { token: csm, body: { publish: true, updateDates: false } });
  expect(republish.status).toBe(400);
  return { id: created.body.id, version: republish.body.version ?? published.body.version };
}

it('unpublishes through the publish call, the published property and an update, none running the online checks', async () => {
  const viaPublish = await publishedThenInvalid();
  const ended = await server.request('PUT', `/v2/advert/${viaPublish.id}/publish`, { token: csm, body: { publish: false, updateDates: true } });
  expect(ended.status, JSON.stringify(ended.body)).toBe(200);
  expect(ended.body.published).toBe(false);

  const viaProperty = await publishedThenInvalid();
  const off = await server.request('PUT', `/v2/advert/${viaProperty.id}/published`, { token: csm, body: { value: false } });
  expect(off.status, JSON.stringify(off.body)).toBe(200);
  expect(off.body.published).toBe(false);

  const viaUpdate = await publishedThenInvalid();
  const saved = await server.request('PUT', `/v2/advert/${viaUpdate.id}`, { token: csm, body: { advert: { published: false, name: 'Hors ligne' } } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect(saved.body).toMatchObject({ published: false, name: 'Hors ligne' });
});
