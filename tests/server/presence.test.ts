import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { nextPresence, presenceSignal, presentAt, PRESENCE_EXPIRY_MS, PRESENCE_JOB_KIND } from '@shared/rules/presence';
import type { Role } from '@shared/roles';
import { buildApp, type App } from '../../src-server/app';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { adverts, audiences } from '../../src-server/db/schema';
import { freshDatabase, throwAwayPostgresDatabase } from '../helpers/database';
import { followJobEvents } from '../helpers/job-stream';

/**
 * Presence (docs/architecture.md, "Versions and conflicts"): POST /presence/:record/:id becomes a job event for
 * those who may edit the record, on this instance and, on PostgreSQL, another; someone who may not edit the
 * record is refused. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

const postgres = Boolean(process.env.TEST_DATABASE_URL);
let handles: DatabaseHandle[] = [];
const apps: App[] = [];
const urls: string[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  if (postgres) {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL!);
    handles = [await openDatabase({ url: database.url }), await openDatabase({ url: database.url })];
    dropDatabase = database.drop;
  } else {
    const handle = await freshDatabase();
    handles = [handle, handle];
  }
  for (const handle of handles) {
    const app = await buildApp({ db: handle.db, dbKind: handle.kind, logger: pino({ level: 'silent' }), jwtSecret: 'same-secret' });
    await app.context.jobEvents.ready;
    apps.push(app);
    urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
  }
});
afterAll(async () => {
  for (const app of apps) await app.close();
  for (const handle of new Set(handles)) await handle.close();
  await dropDatabase?.();
});

let counter = 0;
async function account(name: string, roles: Role[]): Promise<{ id: number; token: string }> {
  counter += 1;
  const [{ id }] = (
    (await handles[0].db.execute(
      sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES (${name}, ${`presence${counter}@x.test`}, 'x', ${`{${roles.join(',')}}`}) RETURNING id`,
    )) as unknown as { rows: { id: number }[] }
  ).rows;
  const token = (await apps[0].context.tokens.signAccess(id, `presence-${id}`, new Date(Date.now() + 86_400_000))).value;
  return { id, token };
}

/** Presence is checked against the record: the tests announce records that exist. */
async function advert(): Promise<number> {
  const [row] = await handles[0].db.insert(adverts).values({ name: 'Présence', createdAt: 0, updatedAt: 0 }).returning({ id: adverts.id });
  return row!.id;
}
async function audience(): Promise<number> {
  const [row] = await handles[0].db.insert(audiences).values({ name: 'Présence' }).returning({ id: audiences.id });
  return row!.id;
}

const follow = (token: string, url: string) => followJobEvents(url, token, PRESENCE_JOB_KIND);

const announce = (token: string, path: string, state: string, url = urls[0]) =>
  fetch(`${url}/presence/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ state }),
  });

describe('presence on the job-events stream', () => {
  it('tells the other editors of a record, on another instance too, who joined, is editing and left', async () => {
    const claire = await account('Claire Martin', ['CSM']);
    const paul = await account('Paul Durand', ['CONTENT_CREATOR']);
    // Another instance on PostgreSQL (LISTEN/NOTIFY); PGlite has one instance's events only.
    const stream = await follow(paul.token, urls[postgres ? 1 : 0]!);
    const id = await advert();
    try {
      expect((await announce(claire.token, `advert/${id}`, 'joined')).status).toBe(200);
      const joined = await stream.next();
      expect(joined).toMatchObject({ kind: 'presence', id: `advert:${id}`, state: 'running', message: 'Claire Martin' });
      expect(presenceSignal(joined)).toMatchObject({ accountId: claire.id, name: 'Claire Martin', joined: true, left: false });

      expect((await announce(claire.token, `advert/${id}`, 'left')).status).toBe(200);
      const left = await stream.next();
      expect(presenceSignal(left)).toMatchObject({ accountId: claire.id, joined: false, left: true });
    } finally {
      stream.close();
    }
  });

  it('refuses a record the caller may not edit, and sends nothing to those who may not edit it', async () => {
    const sales = await account('Sam Sales', ['SALES']);
    const response = await announce(sales.token, 'advert/7', 'joined');
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ errorMsg: MESSAGES.userNotAllowed });
    expect((await announce(sales.token, 'project/7', 'joined')).status).toBe(403);

    // An audience is CSM_LEAD's: a content creator's stream never hears of it, a CSM_LEAD's does.
    const lead = await account('Léa Lead', ['CSM_LEAD']);
    const content = await account('Carl Content', ['CONTENT_CREATOR']);
    const contentStream = await follow(content.token, urls[0]!);
    const leadStream = await follow(lead.token, urls[0]!);
    const [audienceId, advertId] = [await audience(), await advert()];
    try {
      const other = await account('Olga Other', ['CSM_LEAD']);
      expect((await announce(other.token, `audience/${audienceId}`, 'editing')).status).toBe(200);
      expect(await leadStream.next()).toMatchObject({ id: `audience:${audienceId}`, message: 'Olga Other' });
      // The content creator's next presence event is this advert one, not the audience's.
      expect((await announce(lead.token, `advert/${advertId}`, 'editing')).status).toBe(200);
      expect(await contentStream.next()).toMatchObject({ id: `advert:${advertId}`, message: 'Léa Lead' });
    } finally {
      contentStream.close();
      leadStream.close();
    }
  });

  it('refuses an unknown record kind in French at the field', async () => {
    const csm = await account('Cé Csm', ['CSM']);
    const response = await announce(csm.token, 'invoice/1', 'joined');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { errorMsg: string };
    expect(body.errorMsg).not.toMatch(/invalid|expected/i);
  });
});

describe('presence rules', () => {
  it('keeps others by account, never oneself, drops who left or fell silent', () => {
    const at = 1_000_000;
    const signal = (accountId: number, left = false) => ({ accountId, name: `N${accountId}`, joined: false, left, at });
    let others = nextPresence(new Map(), signal(1), 9, at);
    others = nextPresence(others, signal(9), 9, at);
    others = nextPresence(others, signal(2), 9, at + 10_000);
    expect(presentAt(others, at + 20_000)).toEqual(['N1', 'N2']);
    expect(presentAt(others, at + PRESENCE_EXPIRY_MS + 1)).toEqual(['N2']);
    expect(presentAt(nextPresence(others, signal(2, true), 9, at), at)).toEqual(['N1']);
  });
});
