import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../src-server/db/rows';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * PGlite has one connection: a write held in one transaction made every other call wait until it ended (a minute
 * for a large CSV list import). The long writes are now short transactions, and a call from another account is
 * answered between two of them. Each test starts a long write and reads while it runs: a read must be answered
 * while the write is visibly half done (some of its rows committed, not all), which one transaction never shows.
 * Ordering, not timings: nothing here depends on how fast the machine is.
 */

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('long writes on PGlite let other calls through', { timeout: 180_000 }, () => {
  let server: TestServer;
  let admin: string;
  let reader: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = (await server.signIn(['ADMIN'])).accessToken.value;
    reader = (await server.signIn(['CSM'])).accessToken.value;
  });
  afterAll(() => server?.close());

  const count = async (query: ReturnType<typeof sql>) => (await rows<{ n: number }>(server.database.db, query))[0].n;

  /**
   * Calls GET /meta as another account, and reads the write's progress, until `write` settles. Answers the progress
   * seen after each /meta answered while the write was still running.
   */
  async function readWhile(write: Promise<unknown>, progress: () => Promise<number>): Promise<number[]> {
    let done = false;
    const settled = write.finally(() => (done = true));
    const seen: number[] = [];
    while (!done) {
      const meta = await server.request('GET', '/meta', { token: reader });
      expect(meta.status).toBe(200);
      const value = await progress();
      if (!done) seen.push(value);
    }
    await settled;
    return seen;
  }

  it('answers /meta during a population batch of 5,000 users, between its transactions', async () => {
    const users = Array.from({ length: 5000 }, (_, n) => ({ externalId: `long-pop-${n}`, email: `long${n}@exemple.fr`, area: 'french', roles: [] }));
    const written = count(sql`SELECT count(*)::int AS n FROM app_users WHERE external_id LIKE 'long-pop-%'`);
    expect(await written).toBe(0);
    let answer: { status: number; body: unknown } | undefined;
    const write = server.request('POST', '/population/users', { token: admin, body: users }).then((response) => (answer = response));
    const seen = await readWhile(write, () => count(sql`SELECT count(*)::int AS n FROM app_users WHERE external_id LIKE 'long-pop-%'`));
    expect(answer?.status).toBe(200);
    expect(answer?.body).toEqual({ inserted: 5000, updated: 0 });
    expect(seen.some((n) => n > 0 && n < 5000)).toBe(true);
  });

  it('answers /meta while a panel of 20,000 members is matched to app users, statement by statement', async () => {
    await server.database.db.execute(
      sql`INSERT INTO app_users (external_id, email, profession_id) SELECT 'long-lab-' || i, 'lab' || i || '@exemple.fr', 2 FROM generate_series(1, 20000) i`,
    );
    const panel = [
      'NAME;SURNAME;GENDER;CRIT_01;externalId',
      ...Array.from({ length: 20_000 }, (_, i) => `Nom${i};Prénom${i};F;fort;long-lab-${i + 1}`),
    ];
    const form = new FormData();
    form.append('projectName', 'Panel long');
    form.append('file', new Blob([panel.join('\r\n')]), 'panel.csv');
    let status = 0;
    const write = fetch(`${server.url}/alphonse/project`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form }).then(
      async (response) => {
        status = response.status;
        return response.json() as Promise<{ matchedCount: number }>;
      },
    );
    const seen = await readWhile(write, () => count(sql`SELECT count(*)::int AS n FROM lab_panel_members WHERE app_user_id IS NOT NULL`));
    expect(status).toBe(201);
    expect((await write).matchedCount).toBe(20_000);
    expect(seen.some((n) => n > 0 && n < 20_000)).toBe(true);
  });
});
