import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../src-server/db/rows';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A keyed create whose process dies between the create's commit and its stored answer left the key "in progress"
 * for a day (409 « déjà en cours de traitement ») while the record existed: the user clicked again without the
 * key and made a duplicate. Creates now commit with their claim and answer in one transaction. The death is
 * played by the database refusing to store the answer (a trigger), the one step a crash would cut; on PGlite and
 * on PostgreSQL (TEST_DATABASE_URL).
 */
describe('a keyed create cut between its commit and its stored answer', () => {
  let server: TestServer;
  let token: string;
  let csmId: number;
  beforeAll(async () => {
    server = await startTestServer();
    const session = await server.signIn(['CSM']);
    token = session.accessToken.value;
    csmId = session.userId;
  });
  afterAll(() => server?.close());

  const create = (name: string, key: string) =>
    server.request('POST', '/project', {
      token,
      body: { name, clientName: 'Sanofa', keyAccount: csmId, actor: 'Laboratoire', lines: 1 },
      headers: { 'idempotency-key': key },
    });
  const projectsNamed = async (name: string) =>
    (await rows<{ n: number }>(server.database.db, sql`SELECT count(*)::int AS n FROM projects WHERE name = ${name}`))[0].n;

  it('leaves neither the project nor the claim: the retry with the key creates it once', async () => {
    await server.database.db.execute(
      sql.raw(`CREATE FUNCTION refuse_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'process gone before the answer was stored'; END $$`),
    );
    await server.database.db.execute(
      sql.raw(
        `CREATE TRIGGER refuse_answer BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN (NEW.answer IS NOT NULL) EXECUTE FUNCTION refuse_answer()`,
      ),
    );
    const cut = await create('Coupé avant la réponse', 'cut-before-answer-01');
    expect(cut.status).toBe(500);
    await server.database.db.execute(sql.raw(`DROP TRIGGER refuse_answer ON idempotency_keys`));
    expect(await projectsNamed('Coupé avant la réponse')).toBe(0);

    const retried = await create('Coupé avant la réponse', 'cut-before-answer-01');
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const replayed = await create('Coupé avant la réponse', 'cut-before-answer-01');
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(retried.body);
    expect(await projectsNamed('Coupé avant la réponse')).toBe(1);
  });

  it('answers a retry sent while the first is still running with the first answer, once it ends: one project', async () => {
    const answers = await Promise.all([create('Envoyé deux fois', 'sent-twice-0001'), create('Envoyé deux fois', 'sent-twice-0001')]);
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(await projectsNamed('Envoyé deux fois')).toBe(1);
  });
});
