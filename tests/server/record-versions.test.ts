import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { accounts } from '../../src-server/db/schema';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Two people on one record (docs/architecture.md, "Versions and conflicts"): every write names the version it was
 * based on; a stale one changes nothing and answers 409 naming who changed the record and when, with the record as
 * it is now. A write without a version stays last-write-wins.
 */

let server: TestServer;
const people: { token: string; name: string }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  for (const roles of [['CSM'], ['CSM_LEAD'], ['ADMIN']] as const) {
    const session = await server.signIn([...roles]);
    const [row] = await server.database.db.select({ name: accounts.name }).from(accounts).where(eq(accounts.email, session.email));
    people.push({ token: session.accessToken.value, name: row.name });
  }
});
afterAll(() => server?.close());

const [first, second] = [0, 1];
const as = (who: number, method: string, path: string, body?: unknown) => server.request(method, path, { token: people[who].token, body });

describe.each([
  { kind: 'advert', create: '/advert/create', item: (id: number) => `/v2/advert/${id}`, del: (id: number) => `/advert/${id}`, key: 'advert' },
  { kind: 'article', create: '/article/create', item: (id: number) => `/article/${id}`, del: (id: number) => `/article/${id}`, key: 'article' },
] as const)('$kind versions', ({ kind, create, item, del, key }) => {
  async function created() {
    const answer = await as(first, 'POST', create, { [key]: { name: 'Campagne partagée', type: 'post' } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.version).toBe(1);
    return answer.body as { id: number; version: number };
  }

  it('refuses a save based on an older version with who changed it, keeps theirs, and takes it once based on theirs', async () => {
    const { id } = await created();
    const mine = await as(first, 'PUT', item(id), { [key]: { name: 'Nom du CSM' }, version: 1 });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.version).toBe(2);

    const theirs = await as(second, 'PUT', item(id), { [key]: { name: 'Nom du lead' }, version: 1 });
    expect(theirs.status).toBe(409);
    expect(theirs.body.errorMsg).toMatch(
      new RegExp(
        `^${CONFLICT_MESSAGES.recordChanged(kind, people[first].name, 'HH:MM').replace('HH:MM', '\\d{2}:\\d{2}').replace(/[()]/g, '\\$&')}$`,
      ),
    );
    expect(theirs.body.errorMsg).toContain(people[first].name);
    expect(theirs.body.conflict).toMatchObject({ version: 2, updatedBy: people[first].name, current: { name: 'Nom du CSM', version: 2 } });
    expect(Date.parse(theirs.body.conflict.updatedAt)).not.toBeNaN();
    expect((await as(second, 'GET', kind === 'advert' ? `/v2/advert/${id}` : `/article/${id}`)).body.name).toBe('Nom du CSM');

    const retried = await as(second, 'PUT', item(id), { [key]: { name: 'Nom du lead' }, version: 2 });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ name: 'Nom du lead', version: 3 });
  });

  it('checks the version of a property change and of a delete; without a version the write goes through', async () => {
    const { id } = await created();
    expect((await as(first, 'PUT', `${item(id)}/weight`, { value: 7, version: 1 })).status).toBe(200);
    const stale = await as(second, 'PUT', `${item(id)}/weight`, { value: 3, version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.conflict.current.weight).toBe(7);
    const refusedDelete = await as(second, 'DELETE', `${del(id)}?version=1`);
    expect(refusedDelete.status).toBe(409);
    const unversioned = await as(second, 'PUT', `${item(id)}/weight`, { value: 4 });
    expect(unversioned.status).toBe(200);
    expect(unversioned.body.version).toBe(3);
    expect((await as(first, 'DELETE', `${del(id)}?version=3`)).status).toBe(200);
  });
});

describe('advert publication', () => {
  it('refuses to publish an advert changed since it was opened', async () => {
    const advert = await as(first, 'POST', '/advert/create', { advert: { name: 'À publier', type: 'post' } });
    const id = advert.body.id as number;
    expect((await as(first, 'PUT', `/v2/advert/${id}`, { advert: { name: 'Renommée' }, version: 1 })).status).toBe(200);
    const publish = await as(second, 'PUT', `/v2/advert/${id}/publish`, { publish: true, version: 1 });
    expect(publish.status).toBe(409);
    expect(publish.body.errorMsg).toContain(`Cette publicité a été modifiée par ${people[first].name} à `);
    expect((await as(second, 'GET', `/v2/advert/${id}`)).body.published).toBe(false);
  });
});

describe('audience and group versions (CSM_LEAD and ADMIN write them)', () => {
  const [first, second] = [1, 2];
  it('refuses a rename or a criteria change of an audience changed since, naming who; takes one based on theirs', async () => {
    const created = await as(first, 'POST', '/audience', { name: 'Cardiologues', type: 'timeline', area: 'french' });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const id = created.body.id as number;
    const version = created.body.version as number;
    const renamed = await as(first, 'PUT', `/audience/${id}`, { name: 'Cardiologues (CSM)', version });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.version).toBe(version + 1);

    const stale = await as(second, 'PUT', `/audience/${id}`, { name: 'Cardiologues (lead)', version });
    expect(stale.status).toBe(409);
    expect(stale.body.errorMsg).toMatch(
      new RegExp(`^Cette audience a été modifiée par ${people[first].name} à \\d{2}:\\d{2} depuis que vous l'avez ouverte\\.$`),
    );
    expect(stale.body.conflict.current).toMatchObject({ name: 'Cardiologues (CSM)', version: version + 1 });
    const staleCriteria = await as(second, 'PUT', `/audience/${id}/relationships`, { relationships: [], version });
    expect(staleCriteria.status).toBe(409);
    expect((await as(second, 'DELETE', `/audience/${id}/del?version=${version}`)).status).toBe(409);
    expect((await as(second, 'GET', `/audience/${id}`)).body.name).toBe('Cardiologues (CSM)');

    const taken = await as(second, 'PUT', `/audience/${id}`, { name: 'Cardiologues (lead)', version: version + 1 });
    expect(taken.status).toBe(200);
    expect(taken.body.version).toBe(version + 2);
  });

  it('refuses a group change or delete based on an older version', async () => {
    const created = await as(first, 'POST', '/v2/group', { name: 'Appétence cardio', relationships: [] });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const { id, version } = created.body as { id: number; version: number };
    expect((await as(first, 'PUT', `/v2/group/${id}`, { name: 'Appétence cardio (CSM)', version })).status).toBe(200);
    const stale = await as(second, 'PUT', `/v2/group/${id}`, { name: 'Appétence cardio (lead)', version });
    expect(stale.status).toBe(409);
    expect(stale.body.errorMsg).toContain(`Ce groupe a été modifié par ${people[first].name} à `);
    expect(stale.body.conflict.current.name).toBe('Appétence cardio (CSM)');
    const staleDelete = await as(second, 'DELETE', `/v2/group/${id}`, { name: 'Appétence cardio (CSM)', version });
    expect(staleDelete.status).toBe(409);
    expect((await as(second, 'DELETE', `/v2/group/${id}`, { name: 'Appétence cardio (CSM)', version: version + 1 })).status).toBe(200);
  });
});
