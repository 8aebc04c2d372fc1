import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { buildApp } from '../../src-server/app';
import { openDatabase } from '../../src-server/db/client';
import { AudienceEngine } from '../../src-server/features/audiences/engine/engine';
import { rows } from '../../src-server/db/rows';
import { throwAwayPostgresDatabase } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';

const INGEST_TOKEN = 'ingest-token-for-tests-0123456789';

let server: TestServer;
let admin: string;
let lead: string;

beforeAll(async () => {
  server = await startTestServer({ config: { ingestToken: INGEST_TOKEN, companyEmailDomains: ['company.test'] } });
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
});
afterAll(() => server?.close());

const user = (n: number, extra: Record<string, unknown> = {}) => ({
  externalId: `u-${n}`,
  email: `user${n}@example.org`,
  name: `User ${n}`,
  professionId: 2,
  specialtyId: 1,
  area: 'french',
  zipcode: '75011',
  roles: ['ROLE_EXPERT'],
  ...extra,
});
const view = (id: string, n: number, document = 'Guide HTA') => ({
  eventId: id,
  userExternalId: `u-${n}`,
  event: 'document.view',
  node: { label: 'Document', name: document },
  at: '2026-03-01T10:00:00Z',
});

async function ingest(path: 'users' | 'events', body: unknown, token = INGEST_TOKEN) {
  return server.request('POST', `/population/${path}`, { token, body });
}
async function nodeId(label: string, term: string, isGroup = 'true'): Promise<number> {
  const found = await server.request('GET', `/search?term=${encodeURIComponent(term)}&label=${label}&isGroup=${isGroup}`, { token: lead });
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body[0].id;
}
async function size(body: unknown) {
  const response = await server.request('POST', '/audience/size', { token: admin, body });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as { size: number; labels: { label: string; size: number }[] };
}

describe('population ingestion', () => {
  it('accepts the service token and ADMIN, refuses a wrong token', async () => {
    expect((await ingest('users', [user(1)])).body).toEqual({ inserted: 1, updated: 0 });
    expect((await ingest('users', [user(2)], admin)).status).toBe(200);
    const wrong = await ingest('users', [user(3)], 'ingest-token-for-tests-0123456780');
    expect(wrong.status).toBe(401);
    expect(wrong.body.errorMsg).toBe(MESSAGES.invalidToken);
    expect((await ingest('users', [user(3)], lead)).status).toBe(403);
  });

  it('upserts by externalId and the index follows the change within the request', async () => {
    await ingest('users', [user(10, { professionId: 9 })]);
    const profession9 = {
      area: 'french',
      relationships: [{ node: { label: 'Profession', id: await nodeId('Profession', 'Kinésithérapeute') }, type: 'AND', kind: 'required' }],
    };
    expect((await size(profession9)).size).toBe(1);
    expect((await ingest('users', [user(10, { professionId: 4 })])).body).toEqual({ inserted: 0, updated: 1 });
    expect((await size(profession9)).size).toBe(0);
  });

  it('refuses a whole request for one bad row, naming the row and the field', async () => {
    const response = await ingest('users', [user(20), user(21, { email: 'not-an-email' })]);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ errorMsg: 'Élément 1 — E-mail : adresse e-mail invalide', field: '1.email' });
    const duplicate = await ingest('users', [user(20), user(20)]);
    expect(duplicate.body).toEqual({ errorMsg: 'Élément 1 — externalId : en double dans la requête', field: '1.externalId' });
    const found = await server.request('GET', '/users?email=user20', { token: lead });
    expect(found.body).toEqual([]);

    const events = await ingest('events', [view('bad-1', 1), { ...view('bad-2', 999) }]);
    expect(events.body).toEqual({ errorMsg: 'Élément 1 — userExternalId : utilisateur inconnu', field: '1.userExternalId' });
    const wrongEvent = await ingest('events', [{ ...view('bad-3', 1), event: 'search' }]);
    expect(wrongEvent.status).toBe(400);
    expect(wrongEvent.body.field).toBe('0.event');
    expect((await server.request('GET', '/users?email=user1@', { token: lead })).body[0].relsCount).toBe(0);
  });

  it('events are idempotent by eventId, create their node, and count at the answer', async () => {
    await ingest('users', [user(30), user(31)]);
    expect((await ingest('events', [view('e-1', 30, 'Fiche BPCO'), view('e-2', 30, 'Fiche BPCO'), view('e-3', 31, 'Fiche BPCO')])).body).toEqual({
      inserted: 3,
      duplicates: 0,
    });
    expect((await ingest('events', [view('e-1', 30, 'Fiche BPCO'), view('e-4', 31, 'Fiche BPCO')])).body).toEqual({ inserted: 1, duplicates: 1 });
    const document = await nodeId('Document', 'Fiche BPCO');
    const twice = {
      area: 'french',
      relationships: [{ node: { label: 'Document', id: document }, type: 'AND', kind: 'required', event: 'document.view', caping: '2' }],
    };
    expect((await size(twice)).size).toBe(2);
    const thrice = { ...twice, relationships: [{ ...twice.relationships[0], caping: 3 }] };
    expect((await size(thrice)).size).toBe(0);
  });

  it('a large events body: a bad row deep inside is named as zod names it, and nothing of the request is written', async () => {
    await ingest('users', [user(70), user(71)]);
    const body = Array.from({ length: 3000 }, (_, n) => view(`big-${n}`, 70 + (n % 2), 'Guide gros lot'));
    const control = await ingest(
      'events',
      body.map((row, n) => (n === 2345 ? { ...row, node: { ...row.node, name: 'Guide\u0000' } } : row)),
    );
    expect(control.status).toBe(400);
    expect(control.body).toEqual({ errorMsg: expect.stringMatching(/^Élément 2345 — /), field: '2345.node.name' });
    const extra = await ingest(
      'events',
      body.map((row, n) => (n === 1999 ? { ...row, source: 'app' } : row)),
    );
    // The generic wording of an unknown key (the field names the row).
    expect(extra.body).toEqual({ errorMsg: 'source : champ inconnu', field: '1999.source' });
    const unknownUser = await ingest(
      'events',
      body.map((row, n) => (n === 2999 ? { ...row, userExternalId: 'u-nobody' } : row)),
    );
    expect(unknownUser.body).toEqual({ errorMsg: 'Élément 2999 — userExternalId : utilisateur inconnu', field: '2999.userExternalId' });
    const [{ count }] = await rows<{ count: number }>(
      server.database.db,
      sql`SELECT count(*)::int AS count FROM interaction_events WHERE event_id LIKE 'big-%'`,
    );
    expect(count).toBe(0);
    expect((await server.request('GET', '/search?term=Guide%20gros&label=Document&isGroup=true', { token: lead })).body).toEqual([]);

    expect((await ingest('events', body)).body).toEqual({ inserted: 3000, duplicates: 0 });
    const document = await nodeId('Document', 'Guide gros lot');
    const views = (caping: number) => ({
      area: 'french',
      relationships: [{ node: { label: 'Document', id: document }, type: 'AND', kind: 'required', event: 'document.view', caping }],
    });
    expect((await size(views(1500))).size).toBe(2);
    expect((await size(views(1501))).size).toBe(0);
  });

  it('a body of several insert statements: a duplicate in the last one, or across two, keeps the others and the engine counts only the new', async () => {
    await ingest('users', [user(90), user(91)]);
    const first = Array.from({ length: 12_000 }, (_, n) => view(`chunk-${n}`, 90 + (n % 2), 'Fiche lots'));
    expect((await ingest('events', first)).body).toEqual({ inserted: 12_000, duplicates: 0 });
    // 24,000 rows: the first 22,000 new, then 1,000 already stored (in the third statement), then 1,000 repeating
    // rows of the first statement of this same request.
    const second = [
      ...Array.from({ length: 22_000 }, (_, n) => view(`chunk-b-${n}`, 90 + (n % 2), 'Fiche lots')),
      ...first.slice(11_000),
      ...Array.from({ length: 1000 }, (_, n) => view(`chunk-b-${n}`, 90 + (n % 2), 'Fiche lots')),
    ];
    expect((await ingest('events', second)).body).toEqual({ inserted: 22_000, duplicates: 2000 });
    const [{ count }] = await rows<{ count: number }>(
      server.database.db,
      sql`SELECT count(*)::int AS count FROM interaction_events WHERE event_id LIKE 'chunk-%'`,
    );
    expect(count).toBe(34_000);
    const document = await nodeId('Document', 'Fiche lots');
    const views = (caping: number) => ({
      area: 'french',
      relationships: [{ node: { label: 'Document', id: document }, type: 'AND', kind: 'required', event: 'document.view', caping }],
    });
    expect((await size(views(17_000))).size).toBe(2);
    expect((await size(views(17_001))).size).toBe(0);
  });

  it('event ids are kept as sent once trimmed, whatever their characters; repeats within a request count as duplicates', async () => {
    await ingest('users', [user(80)]);
    const odd = ['q"uote', 'back\\slash', '\\N', 'comma,{brace}', 'NULL', 'é à 🙂'];
    expect(
      (
        await ingest(
          'events',
          odd.map((id) => view(id, 80, 'Fiche ids')),
        )
      ).body,
    ).toEqual({ inserted: odd.length, duplicates: 0 });
    const stored = await rows<{ eventId: string }>(
      server.database.db,
      sql`SELECT event_id AS "eventId" FROM interaction_events WHERE event_id = ANY(${sql.param(odd)}::text[])`,
    );
    expect(stored.map((row) => row.eventId).sort()).toEqual([...odd].sort());
    // Trimmed like every text: '  NULL ' is the event already stored; r-1 twice in one request counts once.
    expect((await ingest('events', [view('  NULL ', 80, 'Fiche ids'), view('r-1', 80, 'Fiche ids'), view('r-1', 80, 'Fiche ids')])).body).toEqual({
      inserted: 1,
      duplicates: 2,
    });
    const document = await nodeId('Document', 'Fiche ids');
    const views = (caping: number) => ({
      area: 'french',
      relationships: [{ node: { label: 'Document', id: document }, type: 'AND', kind: 'required', event: 'document.view', caping }],
    });
    expect((await size(views(7))).size).toBe(1);
    expect((await size(views(8))).size).toBe(0);
  });
});

describe('audiences, groups and membership', () => {
  it('creates an audience with its Area, answers its size per label group and the debug membership', async () => {
    await ingest('users', [user(40, { professionId: 3, specialtyId: 6, roles: ['ROLE_PROSPECT'] }), user(41, { professionId: 3, specialtyId: 6 })]);
    const nurse = await nodeId('Profession', 'Infirmier');
    const prospect = await nodeId('Role', 'ROLE_PROSPECT').catch(() => 0);
    expect(prospect).toBe(0); // node search leaves the prospect role out (spec §5)
    const created = await server.request('POST', '/audience', {
      token: lead,
      body: { type: 'timeline', relationships: [{ node: { label: 'Profession', id: nurse }, kind: 'req' }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.name).toBe(`Audience ${created.body.id}`);
    expect(created.body.area).toBe('french');
    expect(Object.keys(created.body.groupedRelationships).sort()).toEqual(['Area', 'Profession']);
    const sized = await size({ audienceId: created.body.id });
    expect(sized.size).toBe(2);
    expect(sized.labels.find((l) => l.label === 'Profession')!.size).toBe(2);

    const [user40] = (await server.request('GET', '/users?email=USER40@', { token: lead })).body;
    const debug = await server.request('GET', `/debug/audience/${user40.id}`, { token: lead });
    expect(debug.body).toEqual({ audiences: [{ id: created.body.id, name: created.body.name }], adverts: [] });

    const meta = await server.request('GET', '/meta', { token: lead });
    expect(meta.body.audiences).toContainEqual({ id: created.body.id, name: created.body.name });

    // Keyword refused on a timeline audience (spec §4).
    await ingest('events', [
      { eventId: 'k-1', userExternalId: 'u-40', event: 'search', node: { label: 'Keyword', name: 'diabète' }, at: '2026-03-01T10:00:00Z' },
    ]);
    const keyword = await nodeId('Keyword', 'diabète');
    const refused = await server.request('PUT', `/audience/${created.body.id}/relationships`, {
      token: lead,
      body: { relationships: [{ node: { label: 'Keyword', id: keyword } }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toBe(MESSAGES.keywordOnTimeline);

    // Reset: the user's interactions go, the user stays, membership follows at once.
    const reset = await server.request('PUT', `/user/${user40.id}/reset`, { token: (await server.signIn(['CSM', 'CSM_LEAD'])).accessToken.value });
    expect(reset.body).toEqual({ id: user40.id, relsCount: 0 });
  });

  it('groups: OrGroup in an audience, cycles refused, delete needs the name', async () => {
    await ingest('users', [user(50, { specialtyId: 15, area: 'english' }), user(51, { specialtyId: 16, area: 'english' })]);
    const dermato = await nodeId('Specialty', 'Dermatologie');
    const endocrino = await nodeId('Specialty', 'Endocrinologie');
    const group = await server.request('POST', '/v2/group', {
      token: lead,
      body: {
        name: 'Peau et hormones',
        label: 'OrGroup',
        relationships: [{ node: { label: 'Specialty', id: dermato } }, { node: { label: 'Specialty', id: endocrino } }],
      },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    expect(group.body.labels).toEqual(['Specialty']);
    const english = { area: 'english', relationships: [{ node: { label: 'OrGroup', id: group.body.id } }] };
    expect((await size(english)).size).toBe(2);

    const outer = await server.request('POST', '/v2/group', {
      token: lead,
      body: { name: 'Outer', label: 'AndGroup', relationships: [{ node: { label: 'OrGroup', id: group.body.id } }] },
    });
    const cycle = await server.request('PUT', `/v2/group/${group.body.id}`, {
      token: lead,
      body: { relationships: [{ node: { label: 'AndGroup', id: outer.body.id } }] },
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.errorMsg).toBe(MESSAGES.groupCycle);

    // Members replaced: the size follows in the same request.
    await server.request('PUT', `/v2/group/${group.body.id}`, {
      token: lead,
      body: { relationships: [{ node: { label: 'Specialty', id: dermato } }] },
    });
    expect((await size(english)).size).toBe(1);

    expect((await server.request('GET', `/v2/group/AndGroup/${group.body.id}`, { token: lead })).status).toBe(404);
    expect((await server.request('GET', `/v2/group/OrGroup/${group.body.id}`, { token: lead })).body.name).toBe('Peau et hormones');
    expect((await server.request('DELETE', `/v2/group/${group.body.id}`, { token: lead, body: { name: 'autre' } })).status).toBe(400);
    expect((await server.request('DELETE', `/v2/group/${group.body.id}`, { token: lead, body: { name: 'Peau et hormones' } })).body).toEqual({
      ok: true,
    });
    const gone = await server.request('POST', '/audience/size', { token: admin, body: english });
    expect(gone.body).toEqual({ errorMsg: MESSAGES.nodeNotFound, field: 'relationships.0.node' });
  });

  it('a group name cannot be emptied: a French 400 naming the field, and the name stays', async () => {
    const group = await server.request('POST', '/v2/group', { token: lead, body: { name: 'Nom gardé', label: 'OrGroup' } });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    for (const name of ['', '   ']) {
      const refused = await server.request('PUT', `/v2/group/${group.body.id}`, { token: lead, body: { name, relationships: [] } });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body).toEqual({ errorMsg: 'Nom : ne peut pas être vide', field: 'name' });
      const created = await server.request('POST', '/v2/group', { token: lead, body: { name, label: 'OrGroup' } });
      expect(created.status, JSON.stringify(created.body)).toBe(400);
      expect(created.body).toEqual({ errorMsg: 'Nom : ne peut pas être vide', field: 'name' });
    }
    expect((await server.request('GET', `/v2/group/OrGroup/${group.body.id}`, { token: lead })).body.name).toBe('Nom gardé');
  });

  it("an audience is not saved without a criterion besides its area: the spec's message, nothing changed", async () => {
    await ingest('users', [user(70, { professionId: 9 })]);
    const medecin = await nodeId('Profession', 'Kinésithérapeute');
    const created = await server.request('POST', '/audience', {
      token: lead,
      body: { name: 'Avec critère', type: 'story', relationships: [{ node: { label: 'Profession', id: medecin } }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const refused = await server.request('PUT', `/audience/${created.body.id}/relationships`, { token: lead, body: { relationships: [] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ errorMsg: MESSAGES.audienceNeedsCriterion, field: 'relationships' });
    const kept = await server.request('GET', `/audience/${created.body.id}`, { token: lead });
    expect(kept.body.relationships.map((r: { node: { label: string } }) => r.node.label).sort()).toEqual(['Area', 'Profession']);
  });

  it('list, update area, duplicate, e-mails attach, detach, bulk delete', async () => {
    const a = (await server.request('POST', '/audience', { token: lead, body: { name: 'Cardio FR', type: 'search' } })).body;
    const listed = await server.request('GET', '/audiences?term=cardio&limit=25', { token: (await server.signIn(['SALES'])).accessToken.value });
    expect(listed.body.items.map((item: { id: number }) => item.id)).toContain(a.id);

    const updated = await server.request('PUT', `/audience/${a.id}`, { token: lead, body: { area: 'english' } });
    expect(updated.body.groupedRelationships.Area.map((r: { node: { name: string } }) => r.node.name)).toEqual(['english']);

    const attached = await server.request('PUT', `/audience/${a.id}/emails/attach`, {
      token: lead,
      body: { emails: ['USER1@example.org', 'nobody@example.org'] },
    });
    expect(attached.body).toEqual({ added: 1, unmatched: ['nobody@example.org'] });
    expect((await size({ audienceId: a.id })).size).toBe(0); // user 1 is french, the audience english

    const copy = await server.request('POST', `/audience/${a.id}/duplicate`, { token: lead });
    expect(copy.status).toBe(201);
    expect(copy.body.relationships).toHaveLength(2);
    const userNode = copy.body.groupedRelationships.User[0].target;
    const detached = await server.request('DELETE', '/detach', {
      token: lead,
      body: { relationships: [{ source: copy.body.id, target: userNode }] },
    });
    expect(detached.body).toEqual({ nodes: 0, relationships: 1 });

    const deleted = await server.request('DELETE', '/audiences/del', { token: lead, body: { ids: [a.id, copy.body.id] } });
    expect(deleted.body).toEqual({ deleted: 2 });
    expect((await server.request('GET', `/audience/${a.id}`, { token: lead })).status).toBe(404);
  });

  it('node search: company domains for users outside the group page, two-digit zips', async () => {
    await ingest('users', [user(60, { email: 'staff@company.test', zipcode: '69003' }), user(61, { email: 'staff@elsewhere.test' })]);
    const outside = await server.request('GET', '/search?term=staff&label=User', { token: lead });
    expect(outside.body.map((n: { name: string }) => n.name)).toEqual(['staff@company.test']);
    const onGroupPage = await server.request('GET', '/search?term=staff&label=User&isGroup=true', { token: lead });
    expect(onGroupPage.body).toHaveLength(2);
    const zips = await server.request('GET', '/search?term=69&label=Zip', { token: lead });
    expect(zips.body.map((n: { name: string }) => n.name)).toEqual(['69']);
  });
});

describe('rebuild', () => {
  it('a server started on the same database builds the same sizes', async () => {
    const document = await nodeId('Document', 'Fiche BPCO');
    const definition = { area: 'french', relationships: [{ node: { label: 'Document', id: document }, event: 'document.view', caping: 2 }] };
    const expected = await size(definition);
    const again = await buildApp({ db: server.database.db, dbKind: server.database.kind, logger: pino({ level: 'silent' }) });
    const url = await again.listen({ host: '127.0.0.1', port: 0 });
    try {
      const response = await fetch(`${url}/audience/size`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify(definition),
      });
      expect(await response.json()).toEqual(expected);
    } finally {
      await again.close();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('several instances on one PostgreSQL', () => {
  it('a second instance sees ingested users and events at its next poll of the changes', async () => {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL!);
    const handles = [await openDatabase({ url: database.url }), await openDatabase({ url: database.url })];
    // No poll on its own during the test: the second instance follows when the test says, so no wall-clock bound.
    const config = { ingestToken: INGEST_TOKEN, populationFollowMs: 3_600_000 };
    const apps = await Promise.all(
      handles.map((handle) => buildApp({ db: handle.db, dbKind: handle.kind, logger: pino({ level: 'silent' }), jwtSecret: 'same-secret', config })),
    );
    const [first, second] = await Promise.all(apps.map((app) => app.listen({ host: '127.0.0.1', port: 0 })));
    const follower = apps[1].services.audienceMembership;
    if (!(follower instanceof AudienceEngine)) throw new Error('the second instance has no audience engine');
    const call = async (url: string, path: string, body: unknown, token: string) => {
      const response = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    try {
      expect((await call(first, '/population/users', [user(1), user(2)], INGEST_TOKEN)).status).toBe(200);
      expect((await call(first, '/population/events', [view('m-1', 1, 'Doc multi'), view('m-2', 2, 'Doc multi')], INGEST_TOKEN)).status).toBe(200);
      const [{ id: documentId }] = (
        (await handles[0].db.execute(sql`SELECT id FROM nodes WHERE label = 'Document' AND value = 'Doc multi'`)) as unknown as { rows: unknown }
      ).rows as { id: number }[];
      // An ADMIN of the shared accounts table, signed by the shared secret.
      const [{ id: adminId }] = (
        (await handles[0].db.execute(
          sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES ('A', 'a@x.test', 'x', '{ADMIN}') RETURNING id`,
        )) as unknown as { rows: unknown }
      ).rows as { id: number }[];
      const token = (await apps[1].context.tokens.signAccess(adminId, 'test-session', new Date(Date.now() + 3_600_000))).value;
      const definition = { area: 'french', relationships: [{ node: { label: 'Document', id: documentId } }] };
      const size = async () => (await call(second, '/audience/size', definition, token)).body.size;
      // Not seen before the poll (its index is in memory), seen after one.
      expect(await size()).toBe(0);
      // A poll sees what committed before the oldest transaction still open (another instance's job tick may hold
      // one for a moment), so the ingest shows at the first poll after it, not always at this very one.
      const sizeAfterPoll = async () => {
        await follower.followOnce();
        return size();
      };
      await expect.poll(sizeAfterPoll, { timeout: 10_000 }).toBe(2);
      // And an update of a user's attributes.
      await call(first, '/population/users', [user(1, { area: 'english' })], INGEST_TOKEN);
      await expect.poll(sizeAfterPoll, { timeout: 10_000 }).toBe(1);
    } finally {
      for (const app of apps) await app.close();
      for (const handle of handles) await handle.close();
      await database.drop();
    }
  });
});
