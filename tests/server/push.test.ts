import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobEvent } from '@shared/jobs';
import { PUSH_MESSAGES } from '@shared/messages/push';
import { PUSH_MAX_ATTEMPTS, pushRetryDelay } from '@shared/rules/push';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { generatePopulation, random } from '../../src-server/features/audiences/generator';
import { pushJobOf } from '../../src-server/features/push';
import { fcmProvider } from '../../src-server/features/push/providers/fcm';
import type { PushProvider } from '../../src-server/features/push/providers/provider';
import { ManualClock } from '../helpers/clock';
import { randomTargeting } from '../helpers/push-targetings';
import { freshDatabase, throwAwayPostgresDatabase } from '../helpers/database';

/**
 * Push campaigns on a real database, two server instances (on PostgreSQL with TEST_DATABASE_URL, each its
 * own pool) and a controlled clock: counts from the engine's index equal SQL over the population; the job sends
 * batches of 1,000 users 1.8 s apart, exactly once, resumes after a server is gone mid-campaign, and stops on cancel.
 */

const clock = new ManualClock(Date.UTC(2026, 5, 1, 7, 0, 0));
let handles: DatabaseHandle[] = [];
const apps: App[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
const accounts: Record<'lead' | 'csm' | 'admin', number> = { lead: 0, csm: 0, admin: 0 };
const logger = pino({ level: 'silent' });

const startApp = (handle: DatabaseHandle) =>
  buildApp({ db: handle.db, dbKind: handle.kind, clock, logger, jwtSecret: 'same-secret', config: { pushIntervalMs: 0, autopublishIntervalMs: 0 } });

/** The 3,500 users every campaign below targets: German-speaking students in chiropody, on Android, with a token. */
const CAMPAIGN_WHERE = {
  area: 'german',
  professions: [12],
  specialties: [''],
  titles: ['STUDENT'],
  os: ['Android'],
  expert: 'experts' as const,
  clause: '',
};

const CAMPAIGN_USER = { area: 'german', professionId: 12, title: 'STUDENT', os: 'Android', roles: ['ROLE_EXPERT'] };

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL);
    handles = [await openDatabase({ url: database.url }), await openDatabase({ url: database.url })];
    dropDatabase = database.drop;
  } else {
    const handle = await freshDatabase();
    handles = [handle, handle];
  }
  const { db } = handles[0];
  // A varied population first (the generator gives most users a token), then the engines are built from it.
  await generatePopulation(db, { users: 1500, events: 0, seed: 23, documents: 0, adverts: 0, keywords: 0 });
  for (const role of ['lead', 'csm', 'admin'] as const) {
    const roles = { lead: '{CONTENT_CREATOR_LEAD}', csm: '{CSM,CSM_LEAD,CONTENT_CREATOR}', admin: '{ADMIN}' }[role];
    const [{ id }] = (
      (await db.execute(
        sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES (${`Push ${role}`}, ${`${role}@push.test`}, 'x', ${roles}) RETURNING id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows;
    accounts[role] = id;
  }
  for (const handle of handles) apps.push(await startApp(handle));
  // Through the ingestion call: tokens given by the feed reach the index at once.
  const users = Array.from({ length: 3500 }, (_, index) => ({
    ...CAMPAIGN_USER,
    externalId: `push-${index}`,
    pushTokens: [{ platform: 'Android', token: `tok-${index}` }],
  }));
  await call('POST', '/population/users', users, { as: 'admin' });
}, 120_000);

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const handle of new Set(handles)) await handle.close();
  await dropDatabase?.();
});

async function call(method: string, url: string, body?: unknown, options: { as?: keyof typeof accounts; app?: App; status?: number } = {}) {
  const app = options.app ?? apps[0];
  const token = (await app.context.tokens.signAccess(accounts[options.as ?? 'lead'], 'push-tests', new Date(clock.now().getTime() + 86_400_000)))
    .value;
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  const parsed = response.body ? JSON.parse(response.body) : undefined;
  if (options.status) expect(response.statusCode, `${method} ${url} ${response.body}`).toBe(options.status);
  else expect(response.statusCode, `${method} ${url} ${response.body}`).toBeLessThan(300);
  return parsed;
}

async function query<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
  return ((await handles[0].db.execute(statement)) as unknown as { rows: T[] }).rows;
}

const notification = { title: 'Nouveau', body: 'Un article pour vous', navigation: 'https://example.org/a', customId: 'custom01' };
const send = async () => call('POST', '/push/campaigns', { notification, where: CAMPAIGN_WHERE });
const job = (app = apps[0]) => pushJobOf(app.context)!;

/** Every user of the campaign has exactly one message. */
async function expectExactlyOnce(campaignId: number, total: number) {
  const [counts] = await query<{ messages: number; users: number }>(
    sql`SELECT count(*)::int AS messages, count(DISTINCT user_id)::int AS users FROM push_messages WHERE campaign_id = ${campaignId}`,
  );
  expect(counts).toEqual({ messages: total, users: total });
}

describe('push count', () => {
  it('equals a count computed from the population for 20 random targetings', async () => {
    const next = random(2323);
    for (let round = 0; round < 20; round += 1) {
      const where = randomTargeting(next, 3);
      const { counter } = await call('POST', '/push/count', { where });
      const list = (values: readonly (string | number)[], column: string, type: string) =>
        values.length && values[0] !== '' ? sql`AND ${sql.raw(column)} = ANY(${sql.param(values)}::${sql.raw(type)}[])` : sql``;
      const [{ expected }] = await query<{ expected: number }>(
        sql`SELECT count(*)::int AS expected FROM app_users u WHERE EXISTS (SELECT 1 FROM app_user_push_tokens t WHERE t.user_id = u.id)
            AND u.area = ${where.area} ${list(where.professions, 'u.profession_id', 'int')} ${list(where.specialties, 'u.specialty_id', 'int')}
            ${list(where.titles, 'u.title', 'text')} ${list(where.os, 'u.os', 'text')}
            ${where.expert === 'experts' ? sql`AND 'ROLE_EXPERT' = ANY(u.roles)` : where.expert === 'not-experts' ? sql`AND NOT 'ROLE_EXPERT' = ANY(u.roles)` : sql``}`,
      );
      expect(counter, JSON.stringify(where)).toBe(expected);
    }
  });

  it('appends the security clause: parsed, evaluated on the index, values never SQL, mistakes answered with their position', async () => {
    const count = async (clause: string) => (await call('POST', '/push/count', { where: { ...CAMPAIGN_WHERE, clause } })).counter as number;
    const all = await count('');
    expect(all).toBeGreaterThanOrEqual(3500);
    expect(await count("title in ('STUDENT') and role = 'ROLE_EXPERT'")).toBe(all);
    expect(await count("not (os = 'Android')")).toBe(0);
    expect(await count("workplace = '''; DROP TABLE app_users; --'")).toBe(0);
    expect(await count("workplace != '''; DROP TABLE app_users; --'")).toBe(all);
    const [{ users }] = await query<{ users: number }>(sql`SELECT count(*)::int AS users FROM app_users`);
    expect(users).toBeGreaterThan(3500);
    const refused = await call('POST', '/push/count', { where: { ...CAMPAIGN_WHERE, clause: "os = 'iOS' and" } }, { status: 400 });
    expect(refused).toMatchObject({ field: 'where.clause', errorMsg: expect.stringContaining('Erreur à la position 15') });
  });

  it("answers 'Invalid area' without an area, and is refused to other roles", async () => {
    const refused = await call('POST', '/push/count', { where: { ...CAMPAIGN_WHERE, area: '' } }, { status: 400 });
    expect(refused.errorMsg).toContain('Invalid area');
    for (const [method, url, body] of [
      ['POST', '/push/count', { where: CAMPAIGN_WHERE }],
      ['POST', '/push/campaigns', { notification, where: CAMPAIGN_WHERE }],
      ['GET', '/push/campaigns', undefined],
      ['GET', '/push/campaigns/1', undefined],
      ['POST', '/push/campaigns/1/cancel', undefined],
    ] as const) {
      await call(method, url, body, { as: 'csm', status: 403 });
    }
    // ADMIN passes every role check (spec §6).
    expect((await call('POST', '/push/count', { where: CAMPAIGN_WHERE }, { as: 'admin' })).counter).toBeGreaterThan(3000);
  });
});

describe('push link or deeplink', () => {
  it('sends only a web address or a deeplink of the app, refusing anything else at the field and sending nothing', async () => {
    const before = (await call('GET', '/push/campaigns')).total;
    for (const navigation of ['javascript:alert(1)', 'ftp://x', 'ftp://article', 'voir le site', 'data:text/html,x', '//exemple.fr']) {
      const refused = await call(
        'POST',
        '/push/campaigns',
        { notification: { ...notification, navigation }, where: CAMPAIGN_WHERE },
        { status: 400 },
      );
      expect(refused, navigation).toEqual({ errorMsg: PUSH_MESSAGES.navigationInvalid, field: 'notification.navigation' });
    }
    expect((await call('GET', '/push/campaigns')).total).toBe(before);
  });
});

describe('push campaigns', () => {
  let total = 0;

  it('sends a 3,500-user campaign in 4 batches 1.8 s apart', async () => {
    const { counter } = await call('POST', '/push/count', { where: CAMPAIGN_WHERE });
    total = counter;
    expect(total).toBeGreaterThanOrEqual(3500);
    expect(total).toBeLessThanOrEqual(4000);
    const campaign = await send();
    expect(campaign).toMatchObject({ total, iterations: 4, batchSize: 1000, done: 0, state: 'queued', provider: 'outbox', createdBy: 'Push lead' });

    const events: JobEvent[] = [];
    const unsubscribe = apps[0].context.jobEvents.subscribe({ accountId: accounts.lead, roles: ['CONTENT_CREATOR_LEAD'] }, (event) =>
      events.push(event),
    );
    const sentAt: number[] = [];
    for (let batch = 0; batch < 4; batch += 1) {
      const outcomes = await job().runOnce();
      expect(outcomes.map((outcome) => outcome.batch)).toEqual([batch]);
      sentAt.push(clock.now().getTime());
      // Not due again before 1.8 s.
      clock.advance(1799);
      expect(await job().runOnce()).toEqual([]);
      clock.advance(1);
      const progress = await call('GET', `/push/campaigns/${campaign.id}`);
      expect(progress).toMatchObject({ done: batch + 1, iterations: 4, state: batch === 3 ? 'done' : 'running' });
    }
    unsubscribe();
    // Progress pushed to the pages as each batch finishes.
    expect(events.map((event) => [event.kind, event.id, event.state, event.progress.done, event.progress.iterations])).toEqual([
      ['push-campaign', String(campaign.id), 'running', 1, 4],
      ['push-campaign', String(campaign.id), 'running', 2, 4],
      ['push-campaign', String(campaign.id), 'running', 3, 4],
      ['push-campaign', String(campaign.id), 'done', 4, 4],
    ]);
    const detail = await call('GET', `/push/campaigns/${campaign.id}`);
    expect(detail.batches.map((batch: { sentAt: number }) => batch.sentAt)).toEqual(sentAt);
    expect(detail.batches.map((batch: { users: number }) => batch.users)).toEqual([1000, 1000, 1000, total - 3000]);
    expect(detail).toMatchObject({ sent: total, failed: 0, finishedAt: sentAt[3], startedAt: sentAt[0] });
    await expectExactlyOnce(campaign.id, total);
    const [message] = await query<{ payload: unknown; status: string }>(
      sql`SELECT payload, status FROM push_messages WHERE campaign_id = ${campaign.id} LIMIT 1`,
    );
    expect(message).toEqual({ payload: notification, status: 'sent' });
    const history = await call('GET', '/push/campaigns');
    expect(history.items[0]).toMatchObject({ id: campaign.id, state: 'done', sent: total });
  });

  it('resumes at batch 3 after the server died during it, and every user gets exactly one message', async () => {
    const dying = await startApp(handles[0]);
    const campaign = await call('POST', '/push/campaigns', { notification, where: CAMPAIGN_WHERE }, { app: dying });
    expect((await job(dying).runOnce()).map((outcome) => outcome.batch)).toEqual([0]);
    clock.advance(1800);
    expect((await job(dying).runOnce()).map((outcome) => outcome.batch)).toEqual([1]);
    clock.advance(1800);
    // The process dies while batch 3 is being sent: nothing of it is committed (the attempt is counted).
    const crashing: PushProvider = {
      name: 'outbox',
      send: async () => {
        throw new Error('killed');
      },
    };
    job(dying).provider = crashing;
    expect(await job(dying).runOnce()).toMatchObject([{ batch: 2, state: 'running', attempt: 1, error: 'killed', users: 0 }]);
    await dying.close();
    expect(await call('GET', `/push/campaigns/${campaign.id}`)).toMatchObject({ done: 2, state: 'running', sent: 2000, error: 'killed' });
    const [{ messages }] = await query<{ messages: number }>(
      sql`SELECT count(*)::int AS messages FROM push_messages WHERE campaign_id = ${campaign.id}`,
    );
    expect(messages).toBe(2000);

    // Another server (or the same one restarted) takes over at batch 3 once the retry pause is over.
    clock.advance(pushRetryDelay(1));
    expect((await job(apps[1]).runOnce()).map((outcome) => outcome.batch)).toEqual([2]);
    clock.advance(1800);
    expect((await job(apps[1]).runOnce()).map((outcome) => outcome.batch)).toEqual([3]);
    expect(await call('GET', `/push/campaigns/${campaign.id}`)).toMatchObject({ done: 4, state: 'done', sent: total, error: null });
    await expectExactlyOnce(campaign.id, total);
  });

  it('a closing server stops between two batches: the other instance sends what is left, once', async () => {
    const closing = await startApp(handles[0]);
    const first = await call('POST', '/push/campaigns', { notification, where: CAMPAIGN_WHERE }, { app: closing });
    const second = await call('POST', '/push/campaigns', { notification, where: CAMPAIGN_WHERE }, { app: closing });
    // SIGTERM arrives while the first batch is being recorded: both campaigns were due, only that batch goes out.
    job(closing).listeners.add(() => void job(closing).stop());
    expect((await job(closing).runOnce()).map((outcome) => [outcome.campaignId, outcome.batch])).toEqual([[first.id, 0]]);
    await closing.close();
    expect((await job().runOnce()).map((outcome) => [outcome.campaignId, outcome.batch])).toEqual([[second.id, 0]]);
    for (let batch = 1; batch < 4; batch += 1) {
      clock.advance(1800);
      expect((await job().runOnce()).map((outcome) => outcome.batch)).toEqual([batch, batch]);
    }
    await expectExactlyOnce(first.id, total);
    await expectExactlyOnce(second.id, total);
  });

  it('sends each batch once with two instances running the job at the same moments', async () => {
    const campaign = await send();
    for (let round = 0; round < 6; round += 1) {
      await Promise.all(apps.map((app) => job(app).runOnce()));
      clock.advance(1800);
    }
    const batches = await query<{ batch: number; count: number }>(
      sql`SELECT batch, count(*)::int AS count FROM push_campaign_batches WHERE campaign_id = ${campaign.id} GROUP BY batch ORDER BY batch`,
    );
    expect(batches).toEqual([0, 1, 2, 3].map((batch) => ({ batch, count: 1 })));
    await expectExactlyOnce(campaign.id, total);
  });

  it('removes the tokens a provider declares dead, and the count follows', async () => {
    await call(
      'POST',
      '/population/users',
      ['a', 'b', 'c'].map((name) => ({
        ...CAMPAIGN_USER,
        externalId: `dead-${name}`,
        workplace: 'Cabinet fermé',
        pushTokens: [{ platform: 'Android', token: `dead-${name}` }],
      })),
      { as: 'admin' },
    );
    const where = { ...CAMPAIGN_WHERE, clause: "workplace = 'Cabinet fermé'" };
    expect((await call('POST', '/push/count', { where })).counter).toBe(3);
    const campaign = await call('POST', '/push/campaigns', { notification, where });
    const original = job().provider;
    job().provider = {
      name: 'fake',
      send: async (messages) =>
        messages.map((message) => ({ userId: message.userId, status: 'failed', invalidTokens: message.tokens.map((device) => device.token) })),
    };
    try {
      expect(await job().runOnce()).toMatchObject([{ campaignId: campaign.id, failed: 3, state: 'done', tokensRemovedFor: expect.any(Array) }]);
    } finally {
      job().provider = original;
    }
    expect((await call('POST', '/push/count', { where })).counter).toBe(0);
    expect(await query(sql`SELECT token FROM app_user_push_tokens WHERE token LIKE 'dead-%'`)).toEqual([]);
    expect(await call('GET', `/push/campaigns/${campaign.id}`)).toMatchObject({ state: 'done', sent: 0, failed: 3 });
  });

  it('cancel stops a campaign before its next batch', async () => {
    const campaign = await send();
    await job().runOnce();
    const cancelled = await call('POST', `/push/campaigns/${campaign.id}/cancel`);
    expect(cancelled).toMatchObject({ state: 'cancelled', done: 1 });
    clock.advance(1800);
    expect(await job().runOnce()).toEqual([]);
    expect(await call('GET', `/push/campaigns/${campaign.id}`)).toMatchObject({ state: 'cancelled', done: 1, sent: 1000 });
    await call('POST', `/push/campaigns/${campaign.id}/cancel`, undefined, { status: 409 });
    await call('GET', '/push/campaigns/999999', undefined, { status: 404 });
  });
});

/**
 * A fake FCM (token exchange and messages:send) that answers 503 while `outage` is on: the FCM provider throws on
 * a server error, so the whole batch is tried again later.
 */
async function fakeFcm() {
  const state: { outage: boolean; sends: number; retryAfter?: string } = { outage: true, sends: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const retryAfter = state.outage && state.retryAfter ? { 'retry-after': state.retryAfter } : {};
      response.writeHead(request.url === '/token' ? 200 : state.outage ? 503 : 200, { 'content-type': 'application/json', ...retryAfter });
      if (request.url !== '/token') state.sends += 1;
      response.end(
        JSON.stringify(
          request.url === '/token'
            ? { access_token: 'ya29.fake', expires_in: 3600 }
            : state.outage
              ? { error: { code: 503, status: 'UNAVAILABLE' } }
              : { name: 'm' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = fcmProvider({
    account: {
      project_id: 'push-tests',
      client_email: 'push@push-tests.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: `${base}/token`,
    },
    endpoint: base,
  });
  return { state, provider, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('push campaigns whose provider fails', () => {
  const WORKPLACE = 'Réseau en panne';
  const where = { ...CAMPAIGN_WHERE, clause: `workplace = '${WORKPLACE}'` };
  let fcm: Awaited<ReturnType<typeof fakeFcm>>;
  let original: PushProvider;

  beforeAll(async () => {
    await call(
      'POST',
      '/population/users',
      ['a', 'b', 'c', 'd'].map((name) => ({
        ...CAMPAIGN_USER,
        externalId: `outage-${name}`,
        workplace: WORKPLACE,
        pushTokens: [{ platform: 'Android', token: `outage-${name}` }],
      })),
      { as: 'admin' },
    );
    fcm = await fakeFcm();
    original = job().provider;
    job().provider = fcm.provider;
  });
  afterAll(async () => {
    job().provider = original;
    await fcm.close();
  });

  const campaignState = async (id: number) => call('GET', `/push/campaigns/${id}`);
  const messagesOf = async (id: number) =>
    (await query<{ count: number }>(sql`SELECT count(*)::int AS count FROM push_messages WHERE campaign_id = ${id}`))[0].count;

  it('tries a failing batch again after 5 s, then 10 s, and goes on once the provider answers', async () => {
    fcm.state.outage = true;
    const campaign = await call('POST', '/push/campaigns', { notification, where });
    expect(campaign).toMatchObject({ total: 4, iterations: 1 });
    expect(await job().runOnce()).toMatchObject([{ campaignId: campaign.id, batch: 0, state: 'running', attempt: 1, error: 'FCM 503 UNAVAILABLE' }]);
    expect(fcm.state.sends).toBeGreaterThan(0);
    expect(await campaignState(campaign.id)).toMatchObject({ state: 'queued', done: 0, sent: 0, error: 'FCM 503 UNAVAILABLE' });
    expect(await messagesOf(campaign.id)).toBe(0);
    // Not before the pause: 5 s after the first failure, 10 s after the second.
    clock.advance(pushRetryDelay(1) - 1);
    expect(await job().runOnce()).toEqual([]);
    clock.advance(1);
    expect(await job().runOnce()).toMatchObject([{ attempt: 2, state: 'running' }]);
    clock.advance(pushRetryDelay(2) - 1);
    expect(await job().runOnce()).toEqual([]);
    fcm.state.outage = false;
    clock.advance(1);
    expect(await job().runOnce()).toMatchObject([{ campaignId: campaign.id, batch: 0, state: 'done', sent: 4 }]);
    expect(await campaignState(campaign.id)).toMatchObject({ state: 'done', done: 1, sent: 4, failed: 0, error: null });
    await expectExactlyOnce(campaign.id, 4);
  });

  it("waits FCM's Retry-After when it asks for longer than the job's own pause", async () => {
    fcm.state.outage = true;
    fcm.state.retryAfter = '30';
    try {
      const campaign = await call('POST', '/push/campaigns', { notification, where });
      expect(await job().runOnce()).toMatchObject([{ campaignId: campaign.id, attempt: 1, state: 'running', error: 'FCM 503 UNAVAILABLE' }]);
      // The job's own pause (5 s) is over, FCM's 30 s are not.
      clock.advance(30_000 - 1);
      expect(await job().runOnce()).toEqual([]);
      fcm.state.outage = false;
      clock.advance(1);
      expect(await job().runOnce()).toMatchObject([{ campaignId: campaign.id, state: 'done', sent: 4 }]);
      await expectExactlyOnce(campaign.id, 4);
    } finally {
      fcm.state.retryAfter = undefined;
    }
  });

  it(`stops a campaign as 'failed' after ${PUSH_MAX_ATTEMPTS} failed attempts in a row, shown so in the history`, async () => {
    fcm.state.outage = true;
    const events: JobEvent[] = [];
    const unsubscribe = apps[0].context.jobEvents.subscribe({ accountId: accounts.lead, roles: ['CONTENT_CREATOR_LEAD'] }, (event) =>
      events.push(event),
    );
    const campaign = await call('POST', '/push/campaigns', { notification, where });
    const started = clock.now().getTime();
    for (let attempt = 1; attempt <= PUSH_MAX_ATTEMPTS; attempt += 1) {
      const last = attempt === PUSH_MAX_ATTEMPTS;
      expect(await job().runOnce()).toMatchObject([{ campaignId: campaign.id, attempt, state: last ? 'failed' : 'running' }]);
      clock.advance(pushRetryDelay(attempt));
    }
    unsubscribe();
    // Never tried again, not even much later.
    clock.advance(3_600_000);
    expect(await job().runOnce()).toEqual([]);
    const failed = await campaignState(campaign.id);
    expect(failed).toMatchObject({ state: 'failed', done: 0, sent: 0, error: 'FCM 503 UNAVAILABLE', startedAt: started, batches: [] });
    // The fifth attempt came 5 + 10 + 20 + 40 s after the first.
    expect(failed.finishedAt - started).toBe(75_000);
    expect(await messagesOf(campaign.id)).toBe(0);
    expect(events.filter((event) => event.id === String(campaign.id)).map((event) => [event.state, event.message])).toEqual([
      ['queued', undefined],
      ...Array.from({ length: PUSH_MAX_ATTEMPTS - 1 }, () => ['running', 'FCM 503 UNAVAILABLE']),
      ['failed', 'FCM 503 UNAVAILABLE'],
    ]);
    const history = await call('GET', '/push/campaigns');
    expect(history.items.find((item: { id: number }) => item.id === campaign.id)).toMatchObject({ state: 'failed', error: 'FCM 503 UNAVAILABLE' });
    await call('POST', `/push/campaigns/${campaign.id}/cancel`, undefined, { status: 409 });
  });
});
