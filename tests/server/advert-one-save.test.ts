import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { contentService } from '../../src-server/features/adverts/content';
import type { ServerContext } from '../../src-server/context';
import { ManualClock } from '../helpers/clock';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * An advert save is one call and one transaction (docs/content.md, The editor): the fields and the audiences together, a
 * refused audience rolling the fields back too; and the writer reads the item once.
 */

const clock = new ManualClock(Date.UTC(2026, 2, 2, 9, 0, 0));
let server: TestServer;
let csm: string;
let first: number;
let second: number;

beforeAll(async () => {
  server = await startTestServer({ clock });
  csm = (await server.signIn(['CSM'])).accessToken.value;
  const made = await server.database.db.execute(sql`INSERT INTO audiences (name) VALUES ('Première'), ('Seconde') RETURNING id`);
  [first, second] = (made as unknown as { rows: { id: number }[] }).rows.map((row) => row.id);
});
afterAll(() => server?.close());

async function newAdvert(body: Record<string, unknown> = {}) {
  const created = await server.request('POST', '/advert/create', { token: csm, body: { advert: { name: 'Une annonce' }, ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('one advert save', () => {
  it('creates an advert with its audiences in one call', async () => {
    const created = await newAdvert({ audienceIds: [first] });
    expect(created._$audiences.map((audience: { id: number }) => audience.id)).toEqual([first]);
  });

  it('saves the fields and the audiences in one call, based on the version the editor started from', async () => {
    const advert = await newAdvert();
    const saved = await server.request('PUT', `/v2/advert/${advert.id}`, {
      token: csm,
      body: { advert: { name: 'Renommée' }, audienceIds: [first, second], version: advert.version },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.name).toBe('Renommée');
    expect(saved.body._$audiences.map((audience: { id: number }) => audience.id).sort()).toEqual([first, second].sort());
    expect(saved.body.version).toBe(advert.version + 1);
    const loaded = await server.request('GET', `/v2/advert/${advert.id}`, { token: csm });
    expect(loaded.body).toEqual(saved.body);
  });

  it('rolls the field changes back when an audience is refused: one transaction', async () => {
    const advert = await newAdvert({ audienceIds: [first] });
    const refused = await server.request('PUT', `/v2/advert/${advert.id}`, {
      token: csm,
      body: { advert: { name: 'Jamais enregistrée' }, audienceIds: [first, 999_999], version: advert.version },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMsg).toBe(MESSAGES.audienceNotFound);
    const loaded = await server.request('GET', `/v2/advert/${advert.id}`, { token: csm });
    expect(loaded.body.name).toBe('Une annonce');
    expect(loaded.body.version).toBe(advert.version);
    expect(loaded.body._$audiences.map((audience: { id: number }) => audience.id)).toEqual([first]);
  });

  it('refuses a save based on an older version, audiences untouched (409)', async () => {
    const advert = await newAdvert({ audienceIds: [first] });
    await server.request('PUT', `/v2/advert/${advert.id}`, { token: csm, body: { advert: { name: 'Autre poste' }, version: advert.version } });
    const stale = await server.request('PUT', `/v2/advert/${advert.id}`, {
      token: csm,
      body: { advert: { name: 'En retard' }, audienceIds: [second], version: advert.version },
    });
    expect(stale.status).toBe(409);
    const loaded = await server.request('GET', `/v2/advert/${advert.id}`, { token: csm });
    expect(loaded.body.name).toBe('Autre poste');
    expect(loaded.body._$audiences.map((audience: { id: number }) => audience.id)).toEqual([first]);
  });
});

describe('the statements of one advert update', () => {
  /** The content service on a database that records every statement it runs (each goes through `execute`). */
  function recorded() {
    const statements: string[] = [];
    const db = server.database.db;
    const dialect = new PgDialect();
    const counting = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(object, key, receiver) {
          const value = Reflect.get(object, key, receiver);
          if (key === 'execute')
            return (query: Parameters<typeof db.execute>[0]) => {
              statements.push(
                dialect
                  .sqlToQuery(query as SQL)
                  .sql.trim()
                  .split(/\s+/)[0]
                  .toUpperCase(),
              );
              return (value as typeof db.execute).call(object, query);
            };
          if (key === 'transaction')
            return (run: (tx: unknown) => unknown) => (value as typeof db.transaction).call(object, (tx) => run(counting(tx)) as never);
          return typeof value === 'function' ? value.bind(object) : value;
        },
      });
    const service = contentService({ db: counting(db), clock } as unknown as ServerContext);
    return { service, statements };
  }

  // The writer reads the item once, in one statement (the row locked, its audiences and its target link joined), and
  // the UPDATE answers the row it wrote (RETURNING): a field save is that read and the account's name. With audiences,
  // the check of the ids sent and the audiences as linked come on top. Once these were 7 and 11 SELECTs; any read
  // added back to the writer fails here.
  it('reads the item once: a field save, and one with its audiences', async () => {
    const advert = await newAdvert({ audienceIds: [first] });
    const { service, statements } = recorded();
    await service.update('advert', advert.id, { name: 'Comptée' }, { id: 1 }, undefined, advert.version);
    const selects = statements.filter((statement) => statement === 'SELECT').length;
    statements.length = 0;
    await service.update('advert', advert.id, { name: 'Comptée encore' }, { id: 1 }, [first, second], advert.version + 1);
    const withAudiences = statements.filter((statement) => statement === 'SELECT').length;
    expect({ selects, withAudiences }).toEqual({ selects: 2, withAudiences: 4 });
  });
});
