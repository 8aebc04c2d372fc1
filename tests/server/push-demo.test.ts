import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_PAUSE_MS } from '@shared/rules/push';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { DEMO_ACCOUNTS, seedDemo } from '../../src-server/seed';
import { ManualClock } from '../helpers/clock';
import { freshDatabase, throwAwayPostgresDatabase } from '../helpers/database';

/**
 * The demo workspace's push history: once the demo population is in the engine, campaigns of the past
 * week sent by the demo CONTENT_CREATOR_LEAD, batch by batch through the job (each user once), one stopped early;
 * never seeded twice. On PostgreSQL with TEST_DATABASE_URL.
 */

const clock = new ManualClock(Date.UTC(2026, 5, 1, 7, 0, 0));
const logger = pino({ level: 'silent' });
let handle: DatabaseHandle;
let dropDatabase: (() => Promise<void>) | undefined;
const apps: App[] = [];

/** A demo server: accounts, a small demo population (enough for campaigns of several batches), the job idle. */
const startDemo = async () => {
  const app = await buildApp({
    db: handle.db,
    dbKind: handle.kind,
    clock,
    logger,
    config: { pushIntervalMs: 0, autopublishIntervalMs: 0, seedAudienceDemo: { users: 8000, events: 0 } },
  });
  apps.push(app);
  return app;
};

async function query<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
  return ((await handle.db.execute(statement)) as unknown as { rows: T[] }).rows;
}

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL);
    handle = await openDatabase({ url: database.url });
    dropDatabase = database.drop;
  } else {
    handle = await freshDatabase();
  }
  await seedDemo(handle.db);
}, 60_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  await handle.close();
  await dropDatabase?.();
});

describe('push demo history', () => {
  it('sends the demo campaigns through the job once the demo population is there, one stopped after its first batch', async () => {
    const app = await startDemo();
    const lead = DEMO_ACCOUNTS.find((account) => account.role === 'CONTENT_CREATOR_LEAD')!;
    const token = (
      await app.context.tokens.signAccess(
        (await query<{ id: number }>(sql`SELECT id FROM accounts WHERE email = ${lead.email}`))[0].id,
        'push-demo',
        new Date(clock.now().getTime() + 86_400_000),
      )
    ).value;
    const get = async (url: string) => JSON.parse((await app.inject({ url, headers: { authorization: `Bearer ${token}` } })).body);

    // The population is seeded in the background, then the campaigns.
    await expect.poll(async () => (await get('/push/campaigns')).items.length, { timeout: 120_000, interval: 500 }).toBe(3);
    const { items } = await get('/push/campaigns');
    expect(items.map((campaign: { state: string }) => campaign.state)).toEqual(['cancelled', 'done', 'done']);
    for (const campaign of items) {
      expect(campaign).toMatchObject({ createdBy: lead.name, provider: 'outbox', error: null });
      expect(campaign.createdAt).toBeLessThan(clock.now().getTime());
      const detail = await get(`/push/campaigns/${campaign.id}`);
      expect(detail.batches.length).toBe(campaign.done);
      expect(detail.batches.map((batch: { sentAt: number }) => batch.sentAt)).toEqual(
        detail.batches.map((_: unknown, index: number) => campaign.createdAt + index * PUSH_PAUSE_MS),
      );
      const [messages] = await query<{ messages: number; users: number; sent: number }>(
        sql`SELECT count(*)::int AS messages, count(DISTINCT user_id)::int AS users, count(*) FILTER (WHERE status = 'sent')::int AS sent
            FROM push_messages WHERE campaign_id = ${campaign.id}`,
      );
      const reached = detail.batches.reduce((sum: number, batch: { users: number }) => sum + batch.users, 0);
      expect(messages).toEqual({ messages: reached, users: reached, sent: campaign.sent });
      if (campaign.state === 'done') {
        expect(campaign.done).toBe(campaign.iterations);
        expect(reached).toBe(campaign.total);
      }
    }
    const [stopped] = items;
    expect(stopped.iterations).toBeGreaterThan(1);
    expect(stopped.done).toBe(1);
    expect(stopped.finishedAt).toBeGreaterThan(stopped.startedAt);
  });

  it('is not seeded again by the next start', async () => {
    const again = await startDemo();
    // Closing waits for its background demo seeding to end.
    await again.close();
    apps.splice(apps.indexOf(again), 1);
    expect((await query<{ campaigns: number }>(sql`SELECT count(*)::int AS campaigns FROM push_campaigns`))[0].campaigns).toBe(3);
  });
});
