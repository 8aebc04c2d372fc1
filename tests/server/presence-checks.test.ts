import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESENCE_MESSAGES } from '@shared/messages/presence';
import { PRESENCE_JOB_KIND, PRESENCE_MIN_INTERVAL_MS, PRESENCE_RECORDS } from '@shared/rules/presence';
import { adverts, audiences, projects } from '../../src-server/db/schema';
import type { ManualClock } from '../helpers/clock';
import { followJobEvents } from '../helpers/job-stream';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * POST /presence/:record/:id is checked against the record (docs/security.md, "Streams and slow requests"): a
 * missing record, or one the caller may not read, is 404 and relays nothing; the same announce again within
 * PRESENCE_MIN_INTERVAL_MS is 429. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */
let server: TestServer;
let clock: ManualClock;

beforeAll(async () => {
  server = await startTestServer();
  clock = server.clock as ManualClock;
});
afterAll(() => server?.close());

const announce = (token: string, path: string, state: 'joined' | 'editing' | 'left' = 'joined') =>
  server.request('POST', `/presence/${path}`, { token, body: { state } });

async function records() {
  const { db } = server.database;
  const [advert] = await db.insert(adverts).values({ name: 'Présence', createdAt: 0, updatedAt: 0 }).returning({ id: adverts.id });
  const [project] = await db.insert(projects).values({ name: 'Présence', clientName: 'Client' }).returning({ id: projects.id });
  const [audience] = await db.insert(audiences).values({ name: 'Présence' }).returning({ id: audiences.id });
  return { advert: advert!.id, project: project!.id, audience: audience!.id };
}

describe('presence is checked against the record', () => {
  it('a missing record: 404 with its message, for every kind, and nothing is relayed', async () => {
    const csm = await server.signIn(['CSM']);
    const lead = await server.signIn(['CSM_LEAD']);
    const stream = await followJobEvents(server.url, lead.accessToken.value, PRESENCE_JOB_KIND);
    try {
      const missing = await announce(csm.accessToken.value, 'project/999999');
      expect(missing).toMatchObject({ status: 404, body: { errorMsg: PRESENCE_MESSAGES.recordNotFound } });
      expect(missing.body.errorMsg).toBe("Cette fiche n'existe pas ou vous ne pouvez pas la consulter.");
      const admin = await server.signIn(['ADMIN']);
      for (const record of PRESENCE_RECORDS) {
        expect((await announce(admin.accessToken.value, `${record}/999999`)).status, record).toBe(404);
      }
      // The lead's next presence event is this one: none of the refused ones went out.
      const { project } = await records();
      expect((await announce(csm.accessToken.value, `project/${project}`)).status).toBe(200);
      expect(await stream.next()).toMatchObject({ id: `project:${project}` });
    } finally {
      stream.close();
    }
  });

  it('a record the caller may not read: 404, as if missing; one it may read but not edit: 403', async () => {
    const lead = await server.signIn(['CSM_LEAD']);
    const group = await server.request('POST', '/v2/group', {
      token: lead.accessToken.value,
      body: { name: 'Présence', label: 'OrGroup', relationships: [] },
    });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    expect((await announce(lead.accessToken.value, `group/${group.body.id}`)).status).toBe(200);
    const content = await server.signIn(['CONTENT_CREATOR']);
    expect(await announce(content.accessToken.value, `group/${group.body.id}`)).toMatchObject({
      status: 404,
      body: { errorMsg: PRESENCE_MESSAGES.recordNotFound },
    });
    const { advert } = await records();
    const sales = await server.signIn(['SALES']);
    expect((await announce(sales.accessToken.value, `advert/${advert}`)).status).toBe(403);
  });

  it('the same announce again within the interval: 429 with Retry-After; other states, records and accounts go', async () => {
    const { advert, audience } = await records();
    const claire = (await server.signIn(['CSM'])).accessToken.value;
    const paul = (await server.signIn(['CSM'])).accessToken.value;
    expect((await announce(claire, `advert/${advert}`)).status).toBe(200);
    const again = await announce(claire, `advert/${advert}`);
    expect(again).toMatchObject({ status: 429, body: { errorMsg: PRESENCE_MESSAGES.tooFrequent } });
    expect(again.headers.get('retry-after')).toBe('3');
    expect(again.body.errorMsg).toBe('Présence déjà signalée il y a un instant. Réessayez dans quelques secondes.');
    // Ten at once: none gets through either.
    const burst = await Promise.all(Array.from({ length: 10 }, () => announce(claire, `advert/${advert}`, 'editing')));
    expect(burst.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(burst.filter((answer) => answer.status === 429)).toHaveLength(9);
    // Leaving always goes out once; another account, or another record, is not held back.
    expect((await announce(claire, `advert/${advert}`, 'left')).status).toBe(200);
    expect((await announce(paul, `advert/${advert}`)).status).toBe(200);
    const lead = (await server.signIn(['CSM_LEAD'])).accessToken.value;
    expect((await announce(lead, `audience/${audience}`)).status).toBe(200);
    // Once the interval has passed, the same announce goes again.
    clock.advance(PRESENCE_MIN_INTERVAL_MS);
    expect((await announce(claire, `advert/${advert}`)).status).toBe(200);
  });
});
