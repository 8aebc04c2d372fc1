import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import { DEFAULT_DURATION_SECONDS } from '@shared/rules/projects';
import { startTestServer, type TestServer } from '../helpers/server';

/** PUT /targets/properties: the grid's batch save of a paste and of its undo. */
const DAY = 86_400;
let server: TestServer;
let csm: string;
let csmId: number;
let sales: string;

beforeAll(async () => {
  server = await startTestServer();
  const session = await server.signIn(['CSM']);
  csm = session.accessToken.value;
  csmId = session.userId;
  sales = (await server.signIn(['SALES'])).accessToken.value;
});
afterAll(() => server?.close());

async function call(method: string, path: string, token: string, body?: unknown, expected = 200) {
  const response = await server.request(method, path, { token, body });
  expect(response.status, `${method} ${path} → ${JSON.stringify(response.body)}`).toBe(expected);
  return response.body;
}

async function createProject(lines: number) {
  return call('POST', '/project', csm, { name: 'Grille', clientName: 'Pharmalab', keyAccount: csmId, actor: 'Laboratoire', lines }, 201);
}

describe('PUT /targets/properties', () => {
  it('refuses an end before the start and a negative CA, in French, and keeps the target as it was', async () => {
    const project = await createProject(2);
    const [a, b] = project.targets;
    const start = 1_767_225_600; // 2026-01-01
    await call('PUT', `/target/${a.id}/properties`, csm, { startDate: start, endDate: start + 30 * DAY, revenue: 5000 });

    const endFirst = await server.request('PUT', `/target/${a.id}/properties`, { token: csm, body: { endDate: start - DAY } });
    expect(endFirst.status).toBe(400);
    expect(endFirst.body.errorMsg).toBe(PROJECT_MESSAGES.endBeforeStart('01/01/2026'));
    const startLate = await server.request('PUT', `/target/${a.id}/properties`, { token: csm, body: { startDate: start + 31 * DAY } });
    expect(startLate.status).toBe(400);
    expect(startLate.body.errorMsg).toBe(PROJECT_MESSAGES.startAfterEnd('31/01/2026'));
    const negative = await server.request('PUT', `/target/${a.id}/properties`, { token: csm, body: { revenue: -10 } });
    expect(negative.status).toBe(400);
    expect(negative.body.errorMsg).toBe(PROJECT_MESSAGES.negativeRevenue);
    // In a batch the failing row is named and nothing is saved; a start and end moved together are fine.
    const batch = await server.request('PUT', '/targets/properties', {
      token: csm,
      body: {
        items: [
          { id: b.id, changes: { comment: 'gardé ?' } },
          { id: a.id, changes: { startDate: start + 60 * DAY, endDate: start + 40 * DAY } },
        ],
      },
    });
    expect(batch.status).toBe(400);
    expect(batch.body.errorMsg).toBe(`${a.actionCode} : ${PROJECT_MESSAGES.endBeforeStart('02/03/2026')}`);
    const reloaded = await call('GET', `/project/${project.id}`, csm);
    expect(reloaded.targets.find((t: { id: number }) => t.id === a.id)).toMatchObject({ startDate: start, endDate: start + 30 * DAY, revenue: 5000 });
    expect(reloaded.targets.find((t: { id: number }) => t.id === b.id).comment).toBeNull();
    await call('PUT', `/target/${a.id}/properties`, csm, { startDate: start + 60 * DAY, endDate: start + 90 * DAY, revenue: 0 });
    await call('PUT', `/target/${a.id}/properties`, csm, { endDate: start + 60 * DAY });
  });

  it('saves the changes of several targets at once, with the date and delay rules of a single change', async () => {
    const project = await createProject(3);
    const [a, b, c] = project.targets;
    const start = 1_767_225_600; // 2026-01-01
    const { items } = await call('PUT', '/targets/properties', csm, {
      items: [
        { id: a.id, changes: { populationSample: 'Cardiologues', populationSize: 1200 } },
        { id: b.id, changes: { initialQuotationDate: start - 30 * DAY, revenue: 9000, startDate: start } },
        { id: c.id, changes: { goal: { days: 60 }, status: '2. en ligne' } },
      ],
    });
    expect(items.map((t: { id: number }) => t.id)).toEqual([a.id, b.id, c.id]);
    expect(items[0]).toMatchObject({ populationSample: 'Cardiologues', populationSize: 1200, needsDelayReason: false });
    // Start fills the end (+90 days), 30 days of delay: impact = 9000 × 15 / 90, a reason is now needed.
    expect(items[1]).toMatchObject({
      endDate: start + DEFAULT_DURATION_SECONDS,
      releaseDateDiff: 30,
      revenueDelayImpact: 1500,
      needsDelayReason: true,
    });
    expect(items[2]).toMatchObject({ goal: { views: 0, days: 60, shipments: 0 }, status: '2. en ligne' });

    const reloaded = await call('GET', `/project/${project.id}`, csm);
    expect(reloaded.targets.find((t: { id: number }) => t.id === b.id).revenueDelayImpact).toBe(1500);
  });

  it('saves nothing when one row fails, and names that row', async () => {
    const project = await createProject(2);
    const [a, b] = project.targets;
    const response = await server.request('PUT', '/targets/properties', {
      token: csm,
      body: {
        items: [
          { id: a.id, changes: { populationSample: 'Dermatologues' } },
          { id: b.id, changes: { actionCode: a.actionCode } },
        ],
      },
    });
    expect(response.status).toBe(409);
    expect(response.body.errorMsg).toBe(`${b.actionCode} : ${PROJECT_MESSAGES.actionCodeTaken}`);
    const reloaded = await call('GET', `/project/${project.id}`, csm);
    expect(reloaded.targets.find((t: { id: number }) => t.id === a.id).populationSample).toBeNull();

    const missing = await server.request('PUT', '/targets/properties', {
      token: csm,
      body: {
        items: [
          { id: a.id, changes: {} },
          { id: 2_000_000_000, changes: {} },
        ],
      },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.errorMsg).toBe(`Action 2000000000 : ${PROJECT_MESSAGES.targetNotFound}`);
  });

  it('refuses SALES, a row twice and more than 1,000 rows', async () => {
    const project = await createProject(1);
    const [a] = project.targets;
    const refused = await server.request('PUT', '/targets/properties', { token: sales, body: { items: [{ id: a.id, changes: { comment: 'x' } }] } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorMsg).toBe(MESSAGES.userNotAllowed);
    const twice = await server.request('PUT', '/targets/properties', {
      token: csm,
      body: {
        items: [
          { id: a.id, changes: {} },
          { id: a.id, changes: {} },
        ],
      },
    });
    expect(twice.status).toBe(400);
    const tooMany = Array.from({ length: 1001 }, (_, index) => ({ id: index + 1, changes: {} }));
    expect((await server.request('PUT', '/targets/properties', { token: csm, body: { items: tooMany } })).status).toBe(400);
  });

  it('saves a paste of 500 cells (100 rows × 5 columns) in one call', async () => {
    const project = await call(
      'POST',
      '/project',
      csm,
      { name: 'Gros collage', clientName: 'Pharmalab', keyAccount: csmId, actor: 'Laboratoire', lines: 100 },
      201,
    );
    const items = project.targets.map((t: { id: number }, index: number) => ({
      id: t.id,
      changes: {
        populationCategory: 'Médecine générale',
        populationSample: `Ciblage ${index}`,
        populationSize: 1000 + index,
        revenue: 1500.5,
        comment: `Ligne ${index}`,
      },
    }));
    const { items: saved } = await call('PUT', '/targets/properties', csm, { items });
    expect(saved).toHaveLength(100);
    expect(saved[99]).toMatchObject({ populationSample: 'Ciblage 99', populationSize: 1099, revenue: 1500.5, comment: 'Ligne 99' });
  });
});
