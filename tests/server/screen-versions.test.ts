import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Story screens are writes of their item (docs/architecture.md, "Versions and conflicts"): adding or removing one
 * names the version it was based on, is refused with 409 when stale, moves the version, and without a version
 * stays last-write-wins.
 */

let server: TestServer;
const tokens: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  for (const roles of [['CSM'], ['CSM_LEAD']] as const) tokens.push((await server.signIn([...roles])).accessToken.value);
});
afterAll(() => server?.close());

const as = (who: number, method: string, path: string, body?: unknown) => server.request(method, path, { token: tokens[who], body });

describe('story screen versions', () => {
  it('adds and removes a story screen based on a version, refused when stale', async () => {
    const created = await as(0, 'POST', '/advert/create', { advert: { name: 'Story partagée', type: 'story' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const added = await as(0, 'POST', `/stories/${id}/screen`, { version: 1 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.version).toBe(2);
    const screenId = added.body.story.screens[0].id as number;

    const stale = await as(1, 'POST', `/stories/${id}/screen`, { version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.errorMsg).toMatch(/^Cette publicité a été modifiée par .+ à \d{2}:\d{2} depuis que vous l'avez ouverte\.$/);
    expect(stale.body.conflict).toMatchObject({ version: 2 });
    expect((await as(1, 'DELETE', `/stories/${id}/screen/${screenId}?version=1`)).status).toBe(409);

    const removed = await as(1, 'DELETE', `/stories/${id}/screen/${screenId}?version=2`);
    expect(removed.body).toMatchObject({ version: 3, story: { screens: [] } });
    // Without a version: last write wins, and the version moves.
    expect((await as(0, 'POST', `/stories/${id}/screen`, {})).body.version).toBe(4);
  });

  it('does the same for an article story screen', async () => {
    const created = await as(0, 'POST', '/article/create', { article: { name: 'Article story', type: 'story' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const added = await as(0, 'POST', `/article/${id}/screen`, { version: 1 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.version).toBe(2);
    expect((await as(1, 'POST', `/article/${id}/screen`, { version: 1 })).status).toBe(409);
  });
});
