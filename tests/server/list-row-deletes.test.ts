import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from '../../src-server/db/schema';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A delete from a list row (docs/architecture.md, "Versions and conflicts"): the row the list answers carries its
 * version, the delete sends it (`?version=`); when someone changed the record since the list was read, the delete
 * is refused with the 409 naming who, and the record is still there.
 */

let server: TestServer;
const people: { token: string; name: string; id: number }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  // Audiences are written by content staff: each person also holds ADMIN.
  for (const roles of [
    ['CSM', 'ADMIN'],
    ['CSM_LEAD', 'ADMIN'],
  ] as const) {
    const session = await server.signIn([...roles]);
    const [row] = await server.database.db.select({ name: accounts.name, id: accounts.id }).from(accounts).where(eq(accounts.email, session.email));
    people.push({ token: session.accessToken.value, name: row.name, id: row.id });
  }
});
afterAll(() => server?.close());

const [first, second] = [0, 1];
const as = (who: number, method: string, path: string, body?: unknown) => server.request(method, path, { token: people[who].token, body });

describe.each([
  {
    kind: 'advert',
    noun: 'Cette publicité a été modifiée',
    create: '/advert/create',
    list: '/adverts',
    item: (id: number) => `/v2/advert/${id}`,
    del: (id: number) => `/advert/${id}`,
  },
  {
    kind: 'article',
    noun: 'Cet article a été modifié',
    create: '/article/create',
    list: '/article/list',
    item: (id: number) => `/article/${id}`,
    del: (id: number) => `/article/${id}`,
  },
] as const)('$kind list rows', ({ kind, noun, create, list, item, del }) => {
  it('carry their version, and a delete based on it is refused once someone changed the record', async () => {
    const created = await as(first, 'POST', create, { [kind]: { name: `Ligne de liste ${kind}`, type: 'post' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const listed = await as(second, 'POST', list, { term: `Ligne de liste ${kind}`, limit: 25, skip: 0 });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const row = (listed.body.items as { id: number; version: number }[]).find((candidate) => candidate.id === id);
    expect(row?.version).toBe(1);

    expect((await as(first, 'PUT', item(id), { [kind]: { name: `Renommé ${kind}` }, version: 1 })).status).toBe(200);
    const refused = await as(second, 'DELETE', `${del(id)}?version=${row!.version}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errorMsg).toMatch(new RegExp(`^${noun} par ${people[first].name} à \\d{2}:\\d{2} depuis que vous l'avez ouverte?\\.$`));
    expect((await as(second, 'GET', item(id))).body.name).toBe(`Renommé ${kind}`);
    expect((await as(second, 'DELETE', `${del(id)}?version=2`)).status).toBe(200);
  });
});

it('audience and group list rows carry the version their delete sends', async () => {
  const audience = await as(first, 'POST', '/audience', { name: 'Liste cardiologues', type: 'timeline', area: 'french' });
  expect(audience.status, JSON.stringify(audience.body)).toBeLessThan(300);
  const audiences = await as(second, 'GET', '/audiences?term=Liste%20cardiologues');
  const audienceRow = (audiences.body.items as { id: number; version: number }[]).find((row) => row.id === audience.body.id);
  expect(audienceRow?.version).toBe(audience.body.version);
  expect((await as(first, 'PUT', `/audience/${audienceRow!.id}`, { name: 'Liste cardiologues (CSM)', version: audienceRow!.version })).status).toBe(
    200,
  );
  const refused = await as(second, 'DELETE', `/audience/${audienceRow!.id}/del?version=${audienceRow!.version}`);
  expect(refused.status).toBe(409);
  expect(refused.body.errorMsg).toContain(`Cette audience a été modifiée par ${people[first].name} à `);
  expect((await as(second, 'GET', `/audience/${audienceRow!.id}`)).body.name).toBe('Liste cardiologues (CSM)');

  const group = await as(first, 'POST', '/v2/group', { name: 'Liste appétence', relationships: [] });
  expect(group.status, JSON.stringify(group.body)).toBeLessThan(300);
  const groups = await as(second, 'GET', '/v2/groups?term=Liste%20app');
  const groupRow = (groups.body.items as { id: number; name: string; version: number }[]).find((row) => row.id === group.body.id);
  expect(groupRow?.version).toBe(group.body.version);
});

it('project list rows carry the version a delete sends; a stale one leaves the project', async () => {
  const project = await as(first, 'POST', '/project', {
    name: 'Projet liste',
    clientName: 'Sanofa',
    keyAccount: people[first].id,
    actor: 'Laboratoire',
    lines: 1,
  });
  expect(project.status, JSON.stringify(project.body)).toBeLessThan(300);
  const id = project.body.id as number;
  const listed = await as(second, 'POST', '/projects', { term: 'Projet liste', limit: 8, skip: 0, status: ['active', 'draft'] });
  const row = (listed.body.items as { id: number; version: number }[]).find((candidate) => candidate.id === id);
  expect(row?.version, JSON.stringify(listed.body).slice(0, 300)).toBe(project.body.version);
  expect((await as(first, 'PUT', '/project', { id, name: 'Projet liste (CSM)', version: row!.version })).status).toBe(200);
  const refused = await as(second, 'DELETE', `/project/${id}?version=${row!.version}`);
  expect(refused.status).toBe(409);
  expect(refused.body.errorMsg).toContain(`Ce projet a été modifié par ${people[first].name} à `);
  expect((await as(second, 'GET', `/project/${id}`)).status).toBe(200);
});
