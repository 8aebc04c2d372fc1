import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_MESSAGES } from '@shared/messages/projects';
import type { Database } from '../../src-server/db/client';
import { ManualClock } from '../helpers/clock';
import { freshDatabase } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The advert ↔ target link (docs/projects.md, Targets) over real HTTP: one record of the link (the target's advert
 * id), set from either side, read by the advert as `_$target` with the target's own figures and project; links
 * to adverts that do not exist refused; the demo's actions name only adverts that exist.
 */

const START = Date.UTC(2026, 2, 2, 9, 0, 0);
const DAY = 86_400;
const clock = new ManualClock(START);
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

let server: TestServer;
let csm: string;
let csmId: number;

beforeAll(async () => {
  server = await startTestServer({ clock });
  const session = await server.signIn(['CSM']);
  csm = session.accessToken.value;
  csmId = session.userId;
});
afterAll(() => server?.close());

async function call(method: string, path: string, body?: unknown, expected = 200) {
  const response = await server.request(method, path, { token: csm, body });
  expect(response.status, `${method} ${path} → ${JSON.stringify(response.body)}`).toBe(expected);
  return response.body;
}
const attempt = (method: string, path: string, body?: unknown) => server.request(method, path, { token: csm, body });

async function project(name: string, lines = 2): Promise<{ id: number; targets: { id: number; actionCode: string }[] }> {
  return call('POST', '/project', { name, clientName: 'Sanofa', keyAccount: csmId, actor: 'Laboratoire', lines }, 201);
}
const advert = (name: string, targetId?: number) =>
  call('POST', '/advert/create', { advert: { name, type: 'post' }, ...(targetId ? { targetId } : {}) }, 201);
const targetOf = async (projectId: number, targetId: number) =>
  (await call('GET', `/project/${projectId}`)).targets.find((t: { id: number }) => t.id === targetId);

describe('advert ↔ target link', () => {
  it('set from the target: the advert shows its _$target with the project id and the initial quotation date', async () => {
    const { id: projectId, targets } = await project('Lien depuis la cible');
    const quoted = nowSeconds() - 30 * DAY;
    const made = await advert('Post lié');
    expect(made._$target).toBeNull();
    const linked = await call('PUT', `/target/${targets[0].id}/properties`, {
      type: 'post',
      advertId: made.id,
      initialQuotationDate: quoted,
      revenue: 9000,
    });
    expect(linked.advertId).toBe(made.id);

    const loaded = await call('GET', `/v2/advert/${made.id}`);
    expect(loaded.targetId).toBe(targets[0].id);
    expect(loaded._$target).toEqual({
      id: targets[0].id,
      projectId,
      initialQuotationDate: quoted,
      endDate: null,
      revenue: 9000,
      delayReason: null,
      releaseDateDiff: null,
      // The target's own rule: no start yet, no delay, nothing lost.
      revenueDelayImpact: 0,
      actionCode: targets[0].actionCode,
    });
    // The list row and its action-code filter read the same link.
    const listed = await call('POST', '/adverts', { term: String(made.id), limit: 5 });
    expect(listed.items.find((row: { id: number }) => row.id === made.id)).toMatchObject({
      targetId: targets[0].id,
      _$targets: [{ id: targets[0].id }],
    });
    const byCode = await call('POST', '/adverts', { actionCodes: [targets[0].actionCode], limit: 5 });
    expect(byCode.items.map((row: { id: number }) => row.id)).toEqual([made.id]);

    // A later change of the target shows in the advert; detaching unlinks both sides.
    await call('PUT', `/target/${targets[0].id}/properties`, { endDate: nowSeconds() + 60 * DAY });
    expect((await call('GET', `/v2/advert/${made.id}`))._$target.endDate).toBe(nowSeconds() + 60 * DAY);
    await call('PUT', `/target/${targets[0].id}/unsetRel`);
    expect(await call('GET', `/v2/advert/${made.id}`)).toMatchObject({ targetId: null, _$target: null });
  });

  it('created from the target: the target shows the advert; a second advert for the same action is refused', async () => {
    const { id: projectId, targets } = await project('Lien depuis la publicité');
    const route = await call('POST', `/target/${targets[1].id}/newadvert`);
    expect(route.targetId).toBe(targets[1].id);
    const made = await advert('Créée depuis la cible', targets[1].id);
    expect(made._$target).toMatchObject({ id: targets[1].id, projectId, actionCode: targets[1].actionCode });
    expect(await targetOf(projectId, targets[1].id)).toMatchObject({ advertId: made.id, advertSource: `/adverts/edit/${made.id}` });

    const second = await attempt('POST', '/advert/create', { advert: { name: 'Doublon', type: 'post' }, targetId: targets[1].id });
    expect(second).toMatchObject({ status: 409, body: { errorMsg: PROJECT_MESSAGES.targetHasAdvert(made.id), field: 'targetId' } });
    const missing = await attempt('POST', '/advert/create', { advert: { name: 'Sans cible', type: 'post' }, targetId: 999_999 });
    expect(missing).toMatchObject({ status: 400, body: { errorMsg: PROJECT_MESSAGES.targetNotFound, field: 'targetId' } });
    // Neither refused creation left an advert behind.
    expect((await call('POST', '/adverts', { term: 'Doublon', limit: 5 })).items).toEqual([]);

    // A copy of the advert serves no action; the original keeps its own.
    const copy = await call('POST', `/advert/${made.id}/duplicate`, {}, 201);
    expect(copy._$target).toBeNull();
    expect((await call('GET', `/v2/advert/${made.id}`))._$target.id).toBe(targets[1].id);
  });

  it('refuses a link to an advert that does not exist, was deleted, or serves another action (at the field, in French)', async () => {
    const { id: projectId, targets } = await project('Liens refusés', 3);
    const missing = await attempt('PUT', `/target/${targets[0].id}/properties`, { advertId: 999_999 });
    expect(missing).toMatchObject({ status: 400, body: { errorMsg: PROJECT_MESSAGES.advertNotFound, field: 'advertId' } });
    expect((await targetOf(projectId, targets[0].id)).advertId).toBeNull();

    // A paste names the row and saves nothing.
    const made = await advert('Servira une action');
    const pasted = await attempt('PUT', '/targets/properties', {
      items: [
        { id: targets[0].id, changes: { advertId: made.id } },
        { id: targets[1].id, changes: { advertId: 999_998 } },
      ],
    });
    expect(pasted).toMatchObject({
      status: 400,
      body: { errorMsg: `${targets[1].actionCode} : ${PROJECT_MESSAGES.advertNotFound}`, field: 'items.1.changes.advertId' },
    });
    expect((await targetOf(projectId, targets[0].id)).advertId).toBeNull();

    // One advert, one action.
    await call('PUT', `/target/${targets[0].id}/properties`, { advertId: made.id });
    const taken = await attempt('PUT', `/target/${targets[1].id}/properties`, { advertId: made.id });
    expect(taken).toMatchObject({
      status: 409,
      body: { errorMsg: PROJECT_MESSAGES.advertLinkedElsewhere(targets[0].actionCode), field: 'advertId' },
    });
    // Setting the same advert again is no change.
    await call('PUT', `/target/${targets[0].id}/properties`, { advertId: made.id, comment: 'inchangé' });

    // Deleting the advert clears the action's link; linking the deleted advert again is refused.
    await call('DELETE', `/advert/${made.id}`);
    expect((await targetOf(projectId, targets[0].id)).advertId).toBeNull();
    const deleted = await attempt('PUT', `/target/${targets[2].id}/properties`, { advertId: made.id });
    expect(deleted).toMatchObject({ status: 400, body: { errorMsg: PROJECT_MESSAGES.advertNotFound, field: 'advertId' } });
  });

  it('a conversion to an article and back keeps the action with the item', async () => {
    const { id: projectId, targets } = await project('Conversion', 1);
    const made = await advert('À convertir', targets[0].id);
    const { id: articleId } = await call('PUT', `/advert/${made.id}/migrate`);
    expect((await targetOf(projectId, targets[0].id)).advertId).toBeNull();
    expect((await call('GET', `/article/${articleId}`))._$target).toMatchObject({ id: targets[0].id, projectId });
    const { id: advertId } = await call('PUT', `/article/${articleId}/migrate`);
    expect((await targetOf(projectId, targets[0].id)).advertId).toBe(advertId);
    expect((await call('GET', `/v2/advert/${advertId}`))._$target).toMatchObject({ id: targets[0].id, projectId });
  });
});

describe('demo workspace', () => {
  type Query = <T>(text: ReturnType<typeof sql>) => Promise<T[]>;
  async function seeded(order: 'projects first' | 'adverts first', check: (query: Query, db: Database) => Promise<void>) {
    const { seedDemo } = await import('../../src-server/seed');
    const { linkDemoAdverts, seedProjectDemo } = await import('../../src-server/features/projects/demo');
    const { seedAdvertDemo } = await import('../../src-server/features/adverts/demo');
    const database = await freshDatabase();
    try {
      await seedDemo(database.db);
      // The adverts wait for an audience; the feature modules link whichever seeding ends last.
      await database.db.execute(sql`INSERT INTO audiences (name) VALUES ('Cardiologues France')`);
      if (order === 'projects first') {
        await seedProjectDemo(database.db, clock.now());
        await seedAdvertDemo(database.db, clock);
        await linkDemoAdverts(database.db);
      } else {
        await seedAdvertDemo(database.db, clock);
        await seedProjectDemo(database.db, clock.now());
      }
      await check(async <T>(text: ReturnType<typeof sql>) => ((await database.db.execute(text)) as unknown as { rows: T[] }).rows, database.db);
    } finally {
      await database.close();
    }
  }

  async function consistent(query: Query) {
    const dangling = await query<{ id: number }>(
      sql`SELECT t.id FROM targets t WHERE t.advert_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM adverts a WHERE a.id = t.advert_id)`,
    );
    expect(dangling).toEqual([]);
    const [{ linked, adverts, twice }] = await query<{ linked: number; adverts: number; twice: number }>(sql`SELECT
      (SELECT count(*)::int FROM targets WHERE advert_id IS NOT NULL) AS linked, (SELECT count(*)::int FROM adverts) AS adverts,
      (SELECT count(*)::int FROM (SELECT advert_id FROM targets WHERE advert_id IS NOT NULL GROUP BY advert_id HAVING count(*) > 1) d) AS twice`);
    expect(linked).toBeGreaterThan(3);
    expect(linked).toBeLessThanOrEqual(adverts);
    expect(twice).toBe(0);
    // Each linked advert is of the type its action searches (a post for a post, a story for a notification, ...).
    const mismatched = await query<{ id: number }>(sql`SELECT t.id FROM targets t JOIN adverts a ON a.id = t.advert_id
      WHERE a.type <> CASE t.type WHEN 'notification' THEN 'story' WHEN 'story video' THEN 'story' WHEN 'sondage' THEN 'quiz' ELSE t.type END`);
    expect(mismatched).toEqual([]);
  }

  it(
    'every demo action names an advert that exists, whichever seeding ends first; an older demo loses ids of missing adverts',
    { timeout: 120_000 },
    async () => {
      const { clearMissingDemoAdverts } = await import('../../src-server/features/projects/demo');
      await seeded('projects first', async (query, db) => {
        await consistent(query);
        // A workspace seeded by an earlier version named adverts that were never created (target 68 → advert 1160).
        const [target] = await query<{ id: number }>(
          sql`UPDATE targets SET advert_id = 1160 WHERE id = (SELECT min(id) FROM targets WHERE advert_id IS NULL) RETURNING id`,
        );
        expect(await clearMissingDemoAdverts(db)).toBe(1);
        expect(await query(sql`SELECT id FROM targets WHERE id = ${target.id} AND advert_id IS NULL`)).toHaveLength(1);
        await consistent(query);
      });
      await seeded('adverts first', consistent);
    },
  );
});
