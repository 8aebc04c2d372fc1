import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { autopublishJobOf, type AutopublishOutcome } from '../../src-server/features/adverts/autopublish';
import { ManualClock } from '../helpers/clock';
import { freshDatabase, throwAwayPostgresDatabase } from '../helpers/database';

/**
 * Autopublish with two server instances on one database and a controlled clock: each due start or
 * stop happens exactly once, mails go out once per address, the report lists what disagrees with its dates.
 * On PostgreSQL (TEST_DATABASE_URL) the two instances have their own connection pools.
 */

const clock = new ManualClock(Date.UTC(2026, 5, 1, 7, 0, 0));
const seconds = () => Math.floor(clock.now().getTime() / 1000);

let handles: DatabaseHandle[] = [];
const apps: App[] = [];
let dropDatabase: (() => Promise<void>) | undefined;
let accountId: number;

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL);
    handles = [await openDatabase({ url: database.url }), await openDatabase({ url: database.url })];
    dropDatabase = database.drop;
  } else {
    const handle = await freshDatabase();
    handles = [handle, handle];
  }
  for (const handle of handles) {
    apps.push(
      await buildApp({
        db: handle.db,
        dbKind: handle.kind,
        clock,
        logger: pino({ level: 'silent' }),
        jwtSecret: 'same-secret',
        config: { autopublishIntervalMs: 0 },
      }),
    );
  }
  const [{ id }] = (
    (await handles[0].db.execute(
      sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES ('Camille', 'csm@x.test', 'x', '{CSM,CSM_LEAD,ADMIN}') RETURNING id`,
    )) as unknown as { rows: { id: number }[] }
  ).rows;
  accountId = id;
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const handle of new Set(handles)) await handle.close();
  await dropDatabase?.();
});

async function call(method: string, url: string, body?: unknown, app = apps[0]) {
  // Signed at the controlled clock's time: access tokens are short-lived and the tests move the clock by hours.
  const token = (await app.context.tokens.signAccess(accountId, 'autopublish-tests', new Date(clock.now().getTime() + 86_400_000))).value;
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  const parsed = response.body ? JSON.parse(response.body) : undefined;
  expect(response.statusCode, `${method} ${url} ${response.body}`).toBeLessThan(300);
  return parsed;
}

let audienceId: number | undefined;
async function expertAudience(): Promise<number> {
  if (audienceId) return audienceId;
  await call('POST', '/population/users', [{ externalId: 'ap-1', roles: ['ROLE_EXPERT'] }]);
  const [role] = await call('GET', '/search?term=ROLE_EXPERT&label=Role&isGroup=true');
  audienceId = (await call('POST', '/audience', { name: 'Experts', relationships: [{ node: { label: 'Role', id: role.id } }] })).id as number;
  return audienceId;
}

const complete = { logo: 'https://cdn.test/l.png', images: ['https://cdn.test/i.png'], author: 'Labo', source: 'https://labo.test', title: 'Titre' };

async function scheduledAdvert(
  name: string,
  dates: { autoStartAt: number; autoStopAt?: number },
  options: { audience?: boolean; emails?: string[] } = {},
) {
  const advert = await call('POST', '/advert/create', {
    advert: { name, type: 'post', ...complete, ...dates, autoPublishOptions: { activated: true, emails: options.emails ?? [] } },
  });
  if (options.audience !== false) await call('POST', '/advert/attach', { advert: { id: advert.id }, audienceIds: [await expertAudience()] });
  return advert.id as number;
}

/** Both instances run the job at the same moment. */
async function runBoth(): Promise<AutopublishOutcome[]> {
  const results = await Promise.all(apps.map((app) => autopublishJobOf(app.context)!.runOnce()));
  return results.flat();
}

async function mailsTo(address: string) {
  return (
    (await handles[0].db.execute(sql`SELECT subject, body FROM outbox WHERE recipient = ${address} ORDER BY id`)) as unknown as {
      rows: { subject: string; body: string }[];
    }
  ).rows;
}

describe('autopublish with two instances', () => {
  it('starts then stops a scheduled advert exactly once, mails every address once, and the report follows', async () => {
    const id = await scheduledAdvert(
      'Campagne auto',
      { autoStartAt: seconds() + 60, autoStopAt: seconds() + 3600 },
      { emails: ['one@x.test', 'two@x.test'] },
    );
    expect(await runBoth()).toEqual([]);
    expect(await call('GET', '/autopublish/report')).toEqual({ shouldBePublished: [], shouldBeUnpublished: [] });

    clock.advance(61_000);
    const report = await call('GET', '/autopublish/report', undefined, apps[1]);
    expect(report.shouldBePublished).toEqual([
      { id, kind: 'advert', name: 'Campagne auto', published: false, autoStartAt: seconds() - 1, autoStopAt: seconds() + 3539 },
    ]);
    const started = await runBoth();
    expect(started).toEqual([{ kind: 'advert', id, action: 'start', outcome: 'applied' }]);
    const advert = await call('GET', `/v2/advert/${id}`);
    expect(advert).toMatchObject({ published: true, publishedAt: seconds(), unpublishedAt: null });
    expect(await call('GET', '/autopublish/report')).toEqual({ shouldBePublished: [], shouldBeUnpublished: [] });
    expect((await mailsTo('one@x.test')).map((mail) => mail.subject)).toEqual(['Publication automatique : Campagne auto']);
    expect(await mailsTo('two@x.test')).toHaveLength(1);
    const history = await call('GET', `/advert/${id}/history`);
    expect(history[0]).toMatchObject({
      action: 'autopublish',
      accountName: 'Publication automatique',
      fields: expect.arrayContaining(['published', 'publishedAt']),
    });

    // A manual unpublish is not undone by the same due start.
    await call('PUT', `/v2/advert/${id}/published`, { value: false });
    expect(await runBoth()).toEqual([]);
    expect((await call('GET', `/v2/advert/${id}`)).published).toBe(false);
    await call('PUT', `/v2/advert/${id}/published`, { value: true });

    clock.advance(3600_000);
    expect((await call('GET', '/autopublish/report')).shouldBeUnpublished.map((item: { id: number }) => item.id)).toEqual([id]);
    expect(await runBoth()).toEqual([{ kind: 'advert', id, action: 'stop', outcome: 'applied' }]);
    expect(await call('GET', `/v2/advert/${id}`)).toMatchObject({ published: false, unpublishedAt: seconds() });
    expect((await mailsTo('one@x.test')).map((mail) => mail.subject)).toEqual([
      'Publication automatique : Campagne auto',
      'Dépublication automatique : Campagne auto',
    ]);
    expect(await runBoth()).toEqual([]);
  });

  it('many due items at once: each applied by exactly one instance', async () => {
    const ids = [];
    for (let n = 0; n < 12; n += 1) ids.push(await scheduledAdvert(`Lot ${n}`, { autoStartAt: seconds() + 10 }));
    clock.advance(11_000);
    const outcomes = await runBoth();
    expect(outcomes.map((outcome) => outcome.id).sort((a, b) => a - b)).toEqual(ids);
    const [{ count }] = (
      (await handles[0].db.execute(
        sql`SELECT count(*)::int AS count FROM autopublish_log WHERE item_id = ANY(${sql.param(ids)}::int[])`,
      )) as unknown as { rows: { count: number }[] }
    ).rows;
    expect(count).toBe(12);
  });

  it('refuses once, by mail, an advert that fails the publication checks', async () => {
    const id = await scheduledAdvert('Sans audience', { autoStartAt: seconds() + 5 }, { audience: false, emails: ['three@x.test'] });
    clock.advance(6_000);
    expect(await runBoth()).toEqual([{ kind: 'advert', id, action: 'start', outcome: 'refused' }]);
    expect((await call('GET', `/v2/advert/${id}`)).published).toBe(false);
    const [mail] = await mailsTo('three@x.test');
    expect(mail.subject).toBe('Publication automatique impossible : Sans audience');
    expect(mail.body).toContain('Aucune audience associée à la publicité');
    expect(await runBoth()).toEqual([]);
    // Still in the report: its state disagrees with its dates.
    expect((await call('GET', '/autopublish/report')).shouldBePublished.map((item: { id: number }) => item.id)).toContain(id);
  });

  it('applies article dates too', async () => {
    const article = await call('POST', '/article/create', { article: { name: 'Article programmé', autoStartAt: seconds() + 5 } });
    clock.advance(6_000);
    expect(await runBoth()).toEqual([{ kind: 'article', id: article.id, action: 'start', outcome: 'applied' }]);
    expect((await call('GET', `/article/${article.id}`)).published).toBe(true);
  });
});
