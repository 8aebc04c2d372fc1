import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFLICT_MESSAGES } from '@shared/messages/conflicts';
import { accounts } from '../../src-server/db/schema';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Two CSMs on one project and its target grid (docs/architecture.md, "Versions and conflicts"): the project's
 * writes name the version they were based on (409 naming the other when stale); the grid's cell edits name, per
 * cell, the value it had when loaded, so a cell only one changed goes through and a cell both changed is kept as
 * the first left it and reported, theirs beside yours.
 */

let server: TestServer;
const people: { token: string; name: string; id: number }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  for (const roles of [['CSM'], ['CSM']] as const) {
    const session = await server.signIn([...roles]);
    const [row] = await server.database.db.select({ name: accounts.name, id: accounts.id }).from(accounts).where(eq(accounts.email, session.email));
    people.push({ token: session.accessToken.value, ...row });
  }
});
afterAll(() => server?.close());

const [first, second] = [0, 1];
const as = (who: number, method: string, path: string, body?: unknown) => server.request(method, path, { token: people[who].token, body });
const staleMessage = (record: 'project' | 'target', name: string) =>
  new RegExp(`^${CONFLICT_MESSAGES.recordChanged(record, name, 'HH:MM').replace('HH:MM', '\\d{2}:\\d{2}')}$`);

async function project(lines = 2) {
  const answer = await as(first, 'POST', '/project', {
    name: 'Cardio partagé',
    clientName: 'Sanofa',
    keyAccount: people[first].id,
    actor: 'Laboratoire',
    lines,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as {
    id: number;
    version: number;
    targets: { id: number; version: number; populationSample: string | null; comment: string | null }[];
  };
}

describe('project versions', () => {
  it('refuses a rename based on an older version, naming who renamed it, and keeps theirs', async () => {
    const { id, version } = await project(0);
    const mine = await as(first, 'PUT', '/project', { id, name: 'Nom du premier', version });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.version).toBe(version + 1);

    const theirs = await as(second, 'PUT', '/project', { id, name: 'Nom du second', version });
    expect(theirs.status).toBe(409);
    expect(theirs.body.errorMsg).toMatch(staleMessage('project', people[first].name));
    expect(theirs.body.conflict).toMatchObject({ version: version + 1, updatedBy: people[first].name, current: { name: 'Nom du premier' } });
    expect((await as(second, 'GET', `/project/${id}`)).body.name).toBe('Nom du premier');

    expect((await as(second, 'DELETE', `/project/${id}?version=${version}`)).status).toBe(409);
    expect((await as(second, 'PUT', '/project', { id, name: 'Nom du second' })).status).toBe(200);
    expect((await as(second, 'DELETE', `/project/${id}?version=${version + 2}`)).status).toBe(200);
  });
});

describe('target grid, cell by cell', () => {
  it('writes a cell only one side changed and reports, without writing it, a cell both changed', async () => {
    const { targets } = await project();
    const [row] = targets;
    const loaded = { populationSample: row.populationSample, comment: row.comment };

    const mine = await as(first, 'PUT', `/target/${row.id}/properties`, { comment: 'Vu avec le client', base: { comment: loaded.comment } });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body).toMatchObject({ comment: 'Vu avec le client', version: row.version + 1, conflicts: [] });

    // The second loaded the row before that change: their sample goes through, their comment does not.
    const theirs = await as(second, 'PUT', `/target/${row.id}/properties`, {
      populationSample: 'Cardiologues',
      comment: 'Relancer lundi',
      base: loaded,
    });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(200);
    expect(theirs.body).toMatchObject({ populationSample: 'Cardiologues', comment: 'Vu avec le client', version: row.version + 2 });
    expect(theirs.body.conflicts).toEqual([
      { field: 'comment', theirs: 'Vu avec le client', yours: 'Relancer lundi', updatedBy: people[first].name, updatedAt: expect.any(String) },
    ]);
  });

  it('does the same for a paste over several rows, and a row version alone refuses a stale row with 409', async () => {
    const { targets } = await project();
    const [a, b] = targets;
    expect((await as(first, 'PUT', `/target/${b.id}/properties`, { populationSample: 'Généralistes', version: b.version })).status).toBe(200);

    const paste = await as(second, 'PUT', '/targets/properties', {
      items: [
        { id: a.id, changes: { populationSample: 'Pédiatres' }, base: { populationSample: a.populationSample } },
        {
          id: b.id,
          changes: { populationSample: 'Pédiatres', comment: 'Collé' },
          base: { populationSample: b.populationSample, comment: b.comment },
        },
      ],
    });
    expect(paste.status, JSON.stringify(paste.body)).toBe(200);
    const [savedA, savedB] = paste.body.items;
    expect(savedA).toMatchObject({ populationSample: 'Pédiatres', conflicts: [] });
    expect(savedB).toMatchObject({ populationSample: 'Généralistes', comment: 'Collé' });
    expect(savedB.conflicts).toMatchObject([
      { field: 'populationSample', theirs: 'Généralistes', yours: 'Pédiatres', updatedBy: people[first].name },
    ]);

    const stale = await as(first, 'PUT', `/target/${a.id}/properties`, { comment: 'Ancienne', version: a.version });
    expect(stale.status).toBe(409);
    expect(stale.body.errorMsg).toMatch(staleMessage('target', people[second].name));
    expect(stale.body.conflict.current).toMatchObject({ populationSample: 'Pédiatres' });
    expect((await as(first, 'DELETE', `/target/${a.id}?version=${a.version}`)).status).toBe(409);
    expect((await as(first, 'DELETE', `/target/${a.id}?version=${savedA.version}`)).status).toBe(200);
  });
});
