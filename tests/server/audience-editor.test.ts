import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { startTestServer, type TestServer } from '../helpers/server';

/** The API the audience editor adds: membership of an unsaved definition, keyword nodes, search input. */
let server: TestServer;
let admin: string;
let lead: string;
let csm: string;

beforeAll(async () => {
  server = await startTestServer({ config: { companyEmailDomains: ['company.test'] } });
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
  csm = (await server.signIn(['CSM'])).accessToken.value;
  const users = [
    { externalId: 'e-1', email: 'cardio@example.org', professionId: 2, area: 'french', roles: ['ROLE_EXPERT'] },
    { externalId: 'e-2', email: 'pneumo@example.org', professionId: 4, area: 'french', roles: [] },
    { externalId: 'e-3', email: 'cardio.es@example.org', professionId: 2, area: 'spanish', roles: [] },
  ];
  expect((await server.request('POST', '/population/users', { token: admin, body: users })).status).toBe(200);
});
afterAll(() => server?.close());

async function node(label: string, term: string) {
  const found = await server.request('GET', `/search?term=${encodeURIComponent(term)}&label=${label}`, { token: lead });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body[0] as { id: number; label: string; name: string };
}
async function userId(email: string) {
  const found = await server.request('POST', '/search/users', { token: lead, body: { term: email } });
  return (found.body as { id: number }[])[0].id;
}

describe('membership of an unsaved definition (the live tester)', () => {
  it('answers whether the user belongs, and to each label group', async () => {
    const cardio = await node('Profession', 'Médecin');
    const expert = await node('Role', 'ROLE_EXPERT');
    const definition = {
      area: 'french',
      relationships: [{ node: { label: 'Profession', id: cardio.id } }, { node: { label: 'Role', id: expert.id } }],
    };
    const member = async (email: string, body: object = definition) => {
      const response = await server.request('POST', '/audience/membership', { token: lead, body: { ...body, userId: await userId(email) } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as { member: boolean; labels: { label: string; member: boolean }[] };
    };
    expect(await member('cardio@example.org')).toEqual({
      member: true,
      labels: [
        { label: 'Area', member: true },
        { label: 'Profession', member: true },
        { label: 'Role', member: true },
      ],
    });
    const pneumo = await member('pneumo@example.org');
    expect(pneumo.member).toBe(false);
    expect(pneumo.labels.filter((entry) => !entry.member).map((entry) => entry.label)).toEqual(['Profession', 'Role']);
    // The area of the definition counts: the Spanish cardiologist is out of a French audience.
    expect(
      (await member('cardio.es@example.org', { area: 'french', relationships: [{ node: { label: 'Profession', id: cardio.id } }] })).member,
    ).toBe(false);
    expect(
      (await member('cardio.es@example.org', { area: 'spanish', relationships: [{ node: { label: 'Profession', id: cardio.id } }] })).member,
    ).toBe(true);
    // A 'not' turns it round.
    expect(
      (await member('pneumo@example.org', { area: 'french', relationships: [{ node: { label: 'Profession', id: cardio.id }, kind: 'not' }] })).member,
    ).toBe(true);
  });

  it('refuses an unknown user (404) and is for CSM_LEAD and ADMIN only', async () => {
    const unknown = await server.request('POST', '/audience/membership', {
      token: lead,
      body: { userId: 999_999, area: 'french', relationships: [] },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorMsg).toBe(MESSAGES.appUserNotFound);
    const refused = await server.request('POST', '/audience/membership', { token: csm, body: { userId: 1, area: 'french', relationships: [] } });
    expect(refused.status).toBe(403);
  });
});

describe('e-mail list attach', () => {
  it('adds every matched user even when a relationship id equals a node id (the unnest alias is not shadowed)', async () => {
    const doctor = await node('Profession', 'Médecin');
    const made = await server.request('POST', '/audience', {
      token: lead,
      body: { name: 'Liste', relationships: [{ node: { label: 'Profession', id: doctor.id } }] },
    });
    expect(made.status).toBe(201);
    const emails = ['cardio@example.org', 'PNEUMO@example.org', 'cardio.es@example.org', 'nobody@example.org'];
    const attached = await server.request('PUT', `/audience/${made.body.id}/emails/attach`, { token: lead, body: { emails } });
    expect(attached.body).toEqual({ added: 3, unmatched: ['nobody@example.org'] });
    const again = await server.request('PUT', `/audience/${made.body.id}/emails/attach`, { token: lead, body: { emails } });
    expect(again.body.added).toBe(0);
    const audience = await server.request('GET', `/audience/${made.body.id}`, { token: lead });
    expect((audience.body.relationships as { node: { label: string } }[]).filter((r) => r.node.label === 'User')).toHaveLength(3);
  });

  it('says how many of a list are known before any audience exists, and creates nothing', async () => {
    const count = async () => (await server.request('GET', '/audiences?limit=1', { token: lead })).body.total as number;
    const before = await count();
    const match = (emails: string[]) => server.request('POST', '/audience/emails/match', { token: lead, body: { emails } });
    expect((await match(['Cardio@Example.org', 'nobody@example.org', 'cardio@example.org'])).body).toEqual({
      known: 1,
      unmatched: ['nobody@example.org'],
    });
    expect((await match(['nobody@example.org'])).body).toEqual({ known: 0, unmatched: ['nobody@example.org'] });
    expect(await count()).toBe(before);
    expect((await server.request('POST', '/audience/emails/match', { token: csm, body: { emails: ['x@example.org'] } })).status).toBe(403);
  });
});

describe('name and type of a saved audience', () => {
  it('refuses taking the type away or emptying the name, at the field in French, and keeps both', async () => {
    const made = await server.request('POST', '/audience', { token: lead, body: { name: 'Typée', type: 'timeline' } });
    expect(made.status).toBe(201);
    const untyped = await server.request('PUT', `/audience/${made.body.id}`, { token: lead, body: { type: null } });
    expect([untyped.status, untyped.body]).toEqual([400, { errorMsg: MESSAGES.fieldRequired('Type'), field: 'type' }]);
    const unnamed = await server.request('PUT', `/audience/${made.body.id}`, { token: lead, body: { name: '   ' } });
    expect([unnamed.status, unnamed.body]).toEqual([400, { errorMsg: MESSAGES.fieldRequired("Nom de l'audience"), field: 'name' }]);
    const kept = await server.request('GET', `/audience/${made.body.id}`, { token: lead });
    expect([kept.body.name, kept.body.type]).toEqual(['Typée', 'timeline']);
  });
});

describe('keyword nodes (the new keyword modal)', () => {
  it('gives the Keyword node of a text, trimmed and lowercased, once', async () => {
    const first = await server.request('POST', '/keyword', { token: lead, body: { name: '  Diabète Type 2 ' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ label: 'Keyword', name: 'diabète type 2' });
    const again = await server.request('POST', '/keyword', { token: lead, body: { name: 'diabète type 2' } });
    expect(again.body.id).toBe(first.body.id);
    expect((await server.request('POST', '/keyword', { token: lead, body: { name: '   ' } })).status).toBe(400);
    expect((await server.request('POST', '/keyword', { token: csm, body: { name: 'x' } })).status).toBe(403);
  });
});

describe('node search with awkward terms', () => {
  it('treats %, _, quotes and backslashes as text, and refuses 5,000 characters', async () => {
    await server.request('POST', '/keyword', { token: lead, body: { name: '100% remboursé' } });
    await server.request('POST', '/keyword', { token: lead, body: { name: 'taux_de_change' } });
    await server.request('POST', '/keyword', { token: lead, body: { name: 'l\'asthme "sévère"' } });
    const search = (term: string) => server.request('GET', `/search?term=${encodeURIComponent(term)}&label=Keyword`, { token: lead });
    const names = async (term: string) => {
      const response = await search(term);
      expect(response.status, term).toBe(200);
      return (response.body as { name: string }[]).map((found) => found.name);
    };
    expect(await names('%')).toEqual(['100% remboursé']);
    expect(await names('_')).toEqual(['taux_de_change']);
    expect(await names("'")).toEqual(['l\'asthme "sévère"']);
    expect(await names('"sévère"')).toEqual(['l\'asthme "sévère"']);
    expect(await names('\\')).toEqual([]);
    expect(await names("' OR 1=1 --")).toEqual([]);
    const long = await search('a'.repeat(5_000));
    expect(long.status).toBe(400);
    expect(long.body.field).toBe('term');
  });
});

describe('audience search of the advert and article editors (spec §7: limit 120 advert, 25 article)', () => {
  it('answers up to 120 audiences, refuses more, and keeps the name order', async () => {
    for (let index = 0; index < 122; index += 1) {
      const made = await server.request('POST', '/audience', {
        token: lead,
        body: { name: `Lot ${String(index).padStart(3, '0')}`, type: 'timeline' },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const page = await server.request('GET', '/audiences/search?term=Lot&limit=120', { token: csm });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const names = (page.body as { name: string }[]).map((row) => row.name);
    expect(names).toHaveLength(120);
    expect(names[0]).toBe('Lot 000');
    expect(names[119]).toBe('Lot 119');
    const tooMany = await server.request('GET', '/audiences/search?term=Lot&limit=121', { token: csm });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.field).toBe('limit');
  });
});
