import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudienceEngine } from '../../src-server/features/audiences/engine/engine';
import { sqlAudienceMembers } from '../helpers/audience-sql';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Property: on random small populations and random audiences (nested groups, not, caping, several labels), the
 * engine's size and each user's membership equal a plain SQL evaluation of the same semantics. Runs on PGlite,
 * and on PostgreSQL with TEST_DATABASE_URL.
 */

let server: TestServer;
let admin: string;
let lead: string;
let run = 0;

beforeAll(async () => {
  server = await startTestServer();
  admin = (await server.signIn(['ADMIN'])).accessToken.value;
  lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
});
afterAll(() => server?.close());

const userArbitrary = fc.record({
  professionId: fc.constantFrom(2, 3, 4),
  specialtyId: fc.option(fc.constantFrom(1, 6, 15), { nil: undefined }),
  title: fc.option(fc.constantFrom('DOCTOR', 'STUDENT'), { nil: undefined }),
  area: fc.constantFrom('french', 'english'),
  zipcode: fc.option(fc.constantFrom('75011', '75012', '13001'), { nil: undefined }),
  roles: fc.subarray(['ROLE_EXPERT', 'ROLE_PROSPECT']),
  feeds: fc.subarray(['cardio', 'onco']),
  apps: fc.subarray(['Vidal', 'Doctolib Pro']),
});
const DOCUMENTS = ['Doc A', 'Doc B'];
const ADVERTS = ['Pub A'];
const eventArbitrary = (users: number) =>
  fc.oneof(
    fc.record({
      user: fc.nat(users - 1),
      label: fc.constant('Document' as const),
      name: fc.constantFrom(...DOCUMENTS),
      event: fc.constant('document.view'),
    }),
    fc.record({
      user: fc.nat(users - 1),
      label: fc.constant('Advert' as const),
      name: fc.constantFrom(...ADVERTS),
      event: fc.constantFrom('advert.view', 'advert.click'),
    }),
  );

/** A criterion by reference: resolved to a node id once the population exists. */
const criterionArbitrary = fc.oneof(
  fc.record({ label: fc.constant('Profession'), term: fc.constantFrom('Médecin', 'Infirmier', 'Pharmacien') }),
  fc.record({ label: fc.constant('Specialty'), term: fc.constantFrom('Médecine générale', 'Cardiologie', 'Dermatologie') }),
  fc.record({ label: fc.constant('Role'), term: fc.constantFrom('ROLE_EXPERT') }),
  fc.record({ label: fc.constant('Title'), term: fc.constantFrom('DOCTOR', 'STUDENT') }),
  fc.record({ label: fc.constant('Zip'), term: fc.constantFrom('75', '13') }),
  fc.record({ label: fc.constant('Feed'), term: fc.constantFrom('cardio', 'onco') }),
  fc.record({ label: fc.constant('App'), term: fc.constantFrom('Vidal', 'Doctolib Pro') }),
  fc.record({
    label: fc.constant('Document'),
    term: fc.constantFrom(...DOCUMENTS),
    event: fc.constantFrom(null, 'document.view'),
    caping: fc.constantFrom(null, 1, 2, 3),
  }),
  fc.record({
    label: fc.constant('Advert'),
    term: fc.constantFrom(...ADVERTS),
    event: fc.constantFrom(null, 'advert.view', 'advert.click'),
    caping: fc.constantFrom(null, 2),
  }),
);
const relationshipArbitrary = fc.record({
  criterion: criterionArbitrary,
  kind: fc.constantFrom('required', 'not'),
  type: fc.constantFrom('AND', 'AND', 'AND', 'SHOULD_TARGET'),
});
const groupArbitrary = fc.record({
  label: fc.constantFrom('OrGroup', 'AndGroup'),
  members: fc.array(relationshipArbitrary, { minLength: 1, maxLength: 3 }),
  nestPrevious: fc.boolean(),
});

const world = fc.integer({ min: 1, max: 12 }).chain((count) =>
  fc.record({
    users: fc.array(userArbitrary, { minLength: count, maxLength: count }),
    events: fc.array(eventArbitrary(count), { maxLength: 40 }),
    groups: fc.array(groupArbitrary, { maxLength: 3 }),
    audiences: fc.array(
      fc.record({
        area: fc.constantFrom('french', 'english'),
        relationships: fc.array(relationshipArbitrary, { maxLength: 4 }),
        groups: fc.subarray([0, 1, 2]),
        notGroups: fc.boolean(),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

describe('engine = SQL on random populations and audiences', () => {
  it('sizes and memberships agree', async () => {
    await fc.assert(
      fc.asyncProperty(world, async ({ users, events, groups, audiences }) => {
        run += 1;
        const ext = (i: number) => `p${run}-${i}`;
        const ingestUsers = await server.request('POST', '/population/users', {
          token: admin,
          body: users.map((user, i) => ({ externalId: ext(i), email: `p${run}-${i}@example.org`, ...user })),
        });
        expect(ingestUsers.status, JSON.stringify(ingestUsers.body)).toBe(200);
        // Every item exists once, so that criteria can name it even without events of this run.
        const seed = [...DOCUMENTS.map((name) => ['Document', name, 'document.view']), ...ADVERTS.map((name) => ['Advert', name, 'advert.view'])];
        const allEvents = [
          ...seed.map(([label, name, event]) => ({
            eventId: `seed-${label}-${name}`,
            userExternalId: 'p1-0',
            event,
            node: { label, name },
            at: '2026-01-01T00:00:00Z',
          })),
          ...events.map((e, i) => ({
            eventId: `p${run}-e${i}`,
            userExternalId: ext(e.user),
            event: e.event,
            node: { label: e.label, name: e.name },
            at: '2026-01-01T00:00:00Z',
          })),
        ];
        expect((await server.request('POST', '/population/events', { token: admin, body: allEvents })).status).toBe(200);

        const nodeIds = new Map<string, number>();
        const resolve = async (criterion: { label: string; term: string }) => {
          const key = `${criterion.label}:${criterion.term}`;
          if (!nodeIds.has(key)) {
            const found = await server.request(
              'GET',
              `/search?term=${encodeURIComponent(criterion.term)}&label=${criterion.label}&isGroup=true&limit=100`,
              { token: lead },
            );
            const exact = (found.body as { id: number; name: string }[]).find(
              (node) => node.name === criterion.term || node.name.startsWith(criterion.term),
            );
            if (!exact) return undefined;
            nodeIds.set(key, exact.id);
          }
          return nodeIds.get(key);
        };
        const toInput = async (relationship: {
          criterion: { label: string; term: string; event?: string | null; caping?: number | null };
          kind: string;
          type: string;
        }) => {
          const id = await resolve(relationship.criterion);
          if (!id) return undefined;
          const { event, caping } = relationship.criterion;
          return {
            node: { label: relationship.criterion.label, id },
            kind: relationship.kind,
            type: relationship.type,
            event: event ?? null,
            caping: caping ?? null,
          };
        };
        const inputs = async (list: Parameters<typeof toInput>[0][]) => (await Promise.all(list.map(toInput))).filter((input) => input !== undefined);

        const groupIds: { id: number; label: string }[] = [];
        for (const group of groups) {
          const members = await inputs(group.members);
          const previous = groupIds.at(-1);
          if (group.nestPrevious && previous)
            members.push({ node: { label: previous.label, id: previous.id }, kind: 'required', type: 'AND', event: null, caping: null });
          const created = await server.request('POST', '/v2/group', {
            token: lead,
            body: { name: `g${run}`, label: group.label, relationships: members },
          });
          expect(created.status, JSON.stringify(created.body)).toBe(201);
          groupIds.push({ id: created.body.id, label: group.label });
        }

        const userIds = (await server.request('GET', `/users?email=p${run}-`, { token: lead })).body.map(
          (user: { id: number }) => user.id,
        ) as number[];
        const created: { id: number; members: number[] }[] = [];
        for (const audience of audiences) {
          const relationships = await inputs(audience.relationships);
          for (const index of audience.groups) {
            const group = groupIds[index];
            if (group)
              relationships.push({
                node: { label: group.label, id: group.id },
                kind: audience.notGroups ? 'not' : 'required',
                type: 'AND',
                event: null,
                caping: null,
              });
          }
          const saved = await server.request('POST', '/audience', { token: lead, body: { area: audience.area, type: 'timeline', relationships } });
          expect(saved.status, JSON.stringify(saved.body)).toBe(201);
          const expected = await sqlAudienceMembers(server.database.db, saved.body.id);
          created.push({ id: saved.body.id, members: expected });
          const size = await server.request('POST', '/audience/size', { token: admin, body: { audienceId: saved.body.id } });
          expect(size.body.size, JSON.stringify(relationships)).toBe(expected.length);
          for (const userId of userIds) {
            const debug = await server.request('GET', `/debug/audience/${userId}`, { token: lead });
            const member = debug.body.audiences.some((a: { id: number }) => a.id === saved.body.id);
            expect(member, `user ${userId} in ${JSON.stringify(relationships)}`).toBe(expected.includes(userId));
          }
        }
        // The same from an index built from the database alone (the start of a server, rebuild()).
        const rebuilt = new AudienceEngine(server.database.db, server.database.kind, pino({ level: 'silent' }));
        await rebuilt.rebuild();
        for (const { id, members } of created) {
          const criteria = rebuilt.audience(id)!.criteria;
          expect(rebuilt.index.members(criteria)).toEqual([...members].sort((a, b) => a - b));
          expect(rebuilt.index.size(criteria).size).toBe(members.length);
          for (const userId of userIds) expect(rebuilt.index.matches(userId, criteria)).toBe(members.includes(userId));
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});
