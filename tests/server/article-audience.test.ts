import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * An article's own audience (adverts-articles.md §2.5): its criteria written inline by the content roles through
 * the article's calls, kept current by the audience engine, never listed with the saved audiences. PGlite, or
 * PostgreSQL with TEST_DATABASE_URL.
 */

let server: TestServer;
let admin: string;
let lead: string;
let sales: string;
let contentCreator: string;
let contentLead: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  sales = (await server.signIn(['SALES'])).accessToken.value;
  contentCreator = (await server.signIn(['CONTENT_CREATOR'])).accessToken.value;
  contentLead = (await server.signIn(['CONTENT_CREATOR_LEAD'])).accessToken.value;
  // Three cardiologists in France (two of them doctors), one general practitioner in Spain.
  const users = [
    { externalId: 'aa-1', area: 'french', specialtyId: 6, professionId: 1, title: 'DOCTOR' },
    { externalId: 'aa-2', area: 'french', specialtyId: 6, professionId: 1, title: 'DOCTOR' },
    { externalId: 'aa-3', area: 'french', specialtyId: 6, professionId: 1, title: 'STUDENT' },
    { externalId: 'aa-4', area: 'spanish', specialtyId: 1, professionId: 1, title: 'DOCTOR' },
  ];
  expect((await server.request('POST', '/population/users', { token: admin, body: users })).status).toBe(200);
});
afterAll(() => server?.close());

const call = (method: string, path: string, token: string, body?: unknown) => server.request(method, path, { token, body });

async function article(name: string, token = contentCreator): Promise<number> {
  const created = await call('POST', '/article/create', token, { article: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

async function node(label: string, term: string, token = contentCreator): Promise<{ id: number; label: string; name: string }> {
  const found = await call('GET', `/article/criteria/search?label=${label}&term=${encodeURIComponent(term)}`, token);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  expect(found.body.length, `${label} ${term}`).toBeGreaterThan(0);
  for (const entry of found.body) expect(entry.label).toBe(label);
  return found.body[0];
}

async function size(audienceId: number): Promise<number> {
  const answer = await call('POST', '/audience/size', admin, { audienceId });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.size;
}

describe("an article's own audience", () => {
  it('is created on the first write by CONTENT_CREATOR, replaced at once, and kept current by the engine', async () => {
    const id = await article('Audience inline');
    expect((await call('GET', `/article/${id}/audience`, contentCreator)).body).toEqual({ audienceId: null, criteria: [] });

    const french = await node('Area', 'fren');
    const cardiology = await node('Specialty', 'cardio');
    const doctor = await node('Title', 'doct');
    const set = await call('PUT', `/article/${id}/audience`, contentCreator, { criteria: { Area: [french.id], Specialty: [cardiology.id] } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const audienceId = set.body.audienceId as number;
    expect(audienceId).toBeGreaterThan(0);
    expect(set.body.criteria.map((entry: { label: string }) => entry.label).sort()).toEqual(['Area', 'Specialty']);
    expect(await size(audienceId)).toBe(3);

    // The article carries it as its audience, with its area (the editor's Area check).
    const loaded = await call('GET', `/article/${id}`, contentCreator);
    expect(loaded.body._$audiences).toEqual([expect.objectContaining({ id: audienceId, label: 'french' })]);

    // A second write replaces the whole set (same audience), and the engine follows at once.
    const again = await call('PUT', `/article/${id}/audience`, contentLead, {
      criteria: { Area: [french.id], Specialty: [cardiology.id], Title: [doctor.id] },
    });
    expect(again.status).toBe(200);
    expect(again.body.audienceId).toBe(audienceId);
    expect(await size(audienceId)).toBe(2);
    const read = await call('GET', `/article/${id}/audience`, sales);
    expect(read.body.criteria.map((entry: { id: number }) => entry.id).sort()).toEqual([french.id, cardiology.id, doctor.id].sort());
  });

  it('is neither listed on /audiences nor found by the audience search, and cannot be attached elsewhere', async () => {
    const id = await article('Audience cachée');
    const french = await node('Area', 'french');
    const own = await call('PUT', `/article/${id}/audience`, contentCreator, { criteria: { Area: [french.id] } });
    const listed = await call('GET', '/audiences?limit=500', lead);
    expect(listed.body.items.map((item: { id: number }) => item.id)).not.toContain(own.body.audienceId);
    const searched = await call('GET', `/audiences/search?term=${encodeURIComponent(`Article ${id}`)}`, lead);
    expect(searched.body).toEqual([]);
    const other = await article('Une autre');
    const stolen = await call('PUT', `/article/${other}`, contentCreator, { article: {}, audienceIds: [own.body.audienceId] });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errorMsg).toBe(MESSAGES.audienceNotFound);
  });

  it('refuses a node of another label or an unknown node, and changes nothing', async () => {
    const id = await article('Audience refusée');
    const french = await node('Area', 'french');
    await call('PUT', `/article/${id}/audience`, contentCreator, { criteria: { Area: [french.id] } });
    const cardiology = await node('Specialty', 'cardio');
    const wrongLabel = await call('PUT', `/article/${id}/audience`, contentCreator, { criteria: { Area: [french.id], Profession: [cardiology.id] } });
    expect(wrongLabel.status).toBe(400);
    expect(wrongLabel.body.errorMsg).toBe(MESSAGES.nodeNotFound);
    const unknown = await call('PUT', `/article/${id}/audience`, contentCreator, { criteria: { Country: [2_000_000_000] } });
    expect(unknown.status).toBe(400);
    const badLabel = await call('PUT', `/article/${id}/audience`, contentCreator, { criteria: { Keyword: [french.id] } });
    expect(badLabel.status).toBe(400);
    expect((await call('GET', `/article/${id}/audience`, contentCreator)).body.criteria).toEqual([french]);
    expect((await call('PUT', '/article/999999/audience', contentCreator, { criteria: {} })).status).toBe(404);
  });

  it('is refused to SALES, and to a request without a token', async () => {
    const id = await article('Audience SALES');
    const refused = await call('PUT', `/article/${id}/audience`, sales, { criteria: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMsg).toBe('User not allowed');
    expect((await call('GET', '/article/criteria/search?label=Area&term=fr', sales)).status).toBe(403);
    expect((await server.request('GET', `/article/${id}/audience`, {})).status).toBe(401);
  });

  it('is copied with a duplicate (its own audience, not shared) and deleted with the article', async () => {
    const id = await article('Audience copiée');
    const french = await node('Area', 'french');
    const own = await call('PUT', `/article/${id}/audience`, contentCreator, { criteria: { Area: [french.id] } });
    const copy = await call('POST', `/article/${id}/duplicate`, contentCreator);
    expect(copy.status).toBe(201);
    const copied = await call('GET', `/article/${copy.body.id}/audience`, contentCreator);
    expect(copied.body.criteria).toEqual([french]);
    expect(copied.body.audienceId).not.toBe(own.body.audienceId);
    expect(copy.body._$audiences.map((entry: { id: number }) => entry.id)).toEqual([copied.body.audienceId]);

    expect((await call('DELETE', `/article/${id}`, contentCreator)).status).toBe(200);
    expect((await call('GET', `/audience/${own.body.audienceId}`, lead)).status).toBe(404);
    expect((await call('POST', '/audience/size', admin, { audienceId: own.body.audienceId })).status).toBe(404);
  });
});
