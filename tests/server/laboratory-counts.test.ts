import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64 } from '@shared/rules/laboratory';
import { appUsers } from '../../src-server/db/schema';
import { projectRow } from '../../src-server/features/laboratory/queries';
import { compileTagQuery, countPanel } from '../../src-server/features/laboratory/tag-query';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Tag counts are answered from panels held in memory: for random queries they must equal the database's
 * count of the same compiled condition, empty cells, missing criteria, unmatched members and NULL user fields
 * included, and follow changes of the matched app users. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

/** A small deterministic generator (mulberry32): the same queries on every run, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

const MEMBERS = 2000;
const GENDERS = ['F', 'M', ''];
const CRIT_VALUES = ['fort', 'moyen', 'faible', '', '3', 'Île-de-France'];
const TITLES = ['DOCTOR', 'STUDENT', '', null];
const AREAS = ['french', 'spanish', null];

/** Every field with values to ask about: some present in the data, some absent, the empty text, numbers. */
const FIELD_VALUES: Record<string, (string | number)[]> = {
  GENDER: [...GENDERS, 'X'],
  NAME: ['Nom1', 'Nom7', 'absent'],
  CRIT_01: [...CRIT_VALUES, 3, 'rare'],
  CRIT_03: [...CRIT_VALUES, 'x'],
  CRIT_04: [...CRIT_VALUES],
  profession: [2, 3, 4, '4', 99],
  specialty: [6, 26, 1],
  title: ['DOCTOR', 'STUDENT', ''],
  area: ['french', 'spanish', 'german'],
  zipcode: ['75001', '69002', ''],
};
const FIELDS = Object.keys(FIELD_VALUES);

function literal(value: string | number): string {
  return typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
}

/** A random query of the filter language (depth ≤ 3) and its params. */
function randomQuery(rng: ReturnType<typeof random>, params: Record<string, unknown>, depth = 0): string {
  const roll = rng.next();
  if (depth < 3 && roll < 0.35) {
    const operator = rng.pick(['and', 'or']);
    return `(${randomQuery(rng, params, depth + 1)} ${operator} ${randomQuery(rng, params, depth + 1)})`;
  }
  if (depth < 3 && roll < 0.45) return `not ${randomQuery(rng, params, depth + 1)}`;
  const field = rng.pick(FIELDS);
  const values = FIELD_VALUES[field];
  if (rng.next() < 0.5) {
    const operator = rng.pick(['=', '!=']);
    if (rng.next() < 0.3) {
      const name = `p${Object.keys(params).length}`;
      params[name] = rng.pick(values);
      return `${field} ${operator} :${name}`;
    }
    return `${field} ${operator} ${literal(rng.pick(values))}`;
  }
  const chosen = Array.from({ length: 1 + Math.floor(rng.next() * 3) }, () => rng.pick(values));
  let list = chosen.map(literal).join(', ');
  if (rng.next() < 0.3) {
    const name = `p${Object.keys(params).length}`;
    params[name] = chosen;
    list = `:${name}`;
  }
  return `${field} ${rng.pick(['in', 'not in'])} (${list})`;
}

describe('laboratory tag counts held in memory', () => {
  let server: TestServer;
  let sales: string;
  let admin: string;
  let projectId: number;

  beforeAll(async () => {
    server = await startTestServer();
    sales = (await server.signIn(['SALES'])).accessToken.value;
    admin = (await server.signIn(['ADMIN'])).accessToken.value;
    const rng = random(7);
    await server.database.db.insert(appUsers).values(
      Array.from({ length: 600 }, (_, i) => ({
        externalId: `cnt-${i}`,
        email: `cnt${i}@example.org`,
        professionId: i % 5 === 0 ? null : 2 + (i % 3),
        specialtyId: rng.pick([6, 26, null]),
        title: rng.pick(TITLES),
        area: rng.pick(AREAS),
        zipcode: rng.pick(['75001', '69002', null]),
      })),
    );
    // CRIT_02 is absent (a hole: an empty text), CRIT_04 is the last; members match by externalId or e-mail, or not at all.
    const lines = ['NAME;SURNAME;GENDER;CRIT_01;CRIT_03;CRIT_04;externalId;EMAIL'];
    for (let i = 0; i < MEMBERS; i += 1) {
      const match = i % 4;
      lines.push(
        [
          `Nom${i % 50}`,
          `Prénom${i}`,
          rng.pick(GENDERS),
          rng.pick(CRIT_VALUES),
          rng.pick(CRIT_VALUES),
          rng.pick(CRIT_VALUES),
          match === 0 ? `cnt-${i % 600}` : '',
          match === 1 ? `CNT${(i * 7) % 600}@example.org` : match === 2 ? `nobody${i}@example.org` : '',
        ].join(';'),
      );
    }
    const form = new FormData();
    form.append('projectName', 'Comptages');
    form.append('file', new Blob([lines.join('\r\n')]), 'panel.csv');
    const created = await fetch(`${server.url}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${sales}` }, body: form });
    const body = (await created.json()) as { id: number; matchedCount: number };
    expect(created.status, JSON.stringify(body)).toBe(201);
    expect(body.matchedCount).toBeGreaterThan(0);
    projectId = body.id;
  });
  afterAll(() => server?.close());

  async function compare(query: string, params: Record<string, unknown>) {
    const tag = { query: toBase64(query), params: toBase64(JSON.stringify(params)) };
    const answer = await server.request('POST', `/alphonse/project/${projectId}/tag/count`, { token: sales, body: tag });
    const project = (await projectRow(server.database.db, projectId))!;
    const expected = await countPanel(server.database.db, projectId, compileTagQuery(tag.query, tag.params, project.crits));
    expect(answer.status, `${query} ${JSON.stringify(params)} ${JSON.stringify(answer.body)}`).toBe(200);
    expect(answer.body.usersCount, `${query} ${JSON.stringify(params)}`).toBe(expected);
    return expected;
  }

  it('answers what the database counts for 200 random queries', async () => {
    const rng = random(42);
    const counts = new Set<number>();
    for (let round = 0; round < 200; round += 1) {
      const params: Record<string, unknown> = {};
      counts.add(await compare(randomQuery(rng, params), params));
    }
    // The queries are not all trivial: many different counts came out.
    expect(counts.size).toBeGreaterThan(50);
    await compare('', {});
    await compare('CRIT_01 not in (:none)', { none: [] });
  }, 120_000);

  it('follows changes of the matched app users', async () => {
    const query = 'profession = 4 and area = :area';
    const before = await compare(query, { area: 'german' });
    expect(before).toBe(0);
    const users = Array.from({ length: 600 }, (_, i) => ({ externalId: `cnt-${i}`, email: `cnt${i}@example.org`, professionId: 4, area: 'german' }));
    const fed = await server.request('POST', '/population/users', { token: admin, body: users });
    expect(fed.status, JSON.stringify(fed.body)).toBe(200);
    expect(await compare(query, { area: 'german' })).toBeGreaterThan(0);
  });
});
