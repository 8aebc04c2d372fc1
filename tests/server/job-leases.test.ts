import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES } from '@shared/messages/imports';
import { rows } from '../../src-server/db/rows';
import { startTestServer, type TestServer } from '../helpers/server';
import { untilValue } from '../helpers/until';

/**
 * Jobs whose instance died (README "CSV list import", src-server/jobs/lease.ts): a CSV import or a laboratory panel
 * load cut by its server's death held its state (running, pending) and its rows for ever. Each now holds a lease its
 * instance renews; past it, any instance ends the job and drops its rows. A dead instance is simulated by the rows it
 * would leave: a job whose lease expired, with staged rows. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function server(jobSweepMs = 60_000): Promise<TestServer> {
  const started = await startTestServer({ config: { jobSweepMs } });
  servers.push(started);
  return started;
}

/** An import a dead instance left running: its lease `leaseSeconds` from now (negative: expired), `staged` rows of e-mails. */
async function importLeftRunning(target: TestServer, leaseSeconds: number | null, staged: number): Promise<number> {
  const lease = leaseSeconds === null ? sql`NULL` : sql`now() + make_interval(secs => ${leaseSeconds})`;
  // One statement: a sweep running meanwhile sees the job with its rows, or neither.
  const [{ id }] = await rows<{ id: number }>(
    target.database.db,
    sql`WITH job AS (INSERT INTO csv_imports (filename, mapping, state, phase, rows_read, lease_until)
                     VALUES ('panel.csv', '[]'::jsonb, 'running', 'reading', ${staged}, ${lease}) RETURNING id),
             staged AS (INSERT INTO csv_import_rows (import_id, line, email)
                        SELECT job.id, n + 1, 'someone' || n || '@example.org' FROM job, generate_series(1, ${staged}) AS n)
        SELECT id FROM job`,
  );
  return id;
}

const job = async (target: TestServer, id: number) =>
  (
    await rows<{ state: string; message: string | null; staged: number }>(
      target.database.db,
      sql`SELECT state, message, (SELECT count(*)::int FROM csv_import_rows WHERE import_id = ${id}) AS staged FROM csv_imports WHERE id = ${id}`,
    )
  )[0];

describe('CSV imports: a job whose instance died', () => {
  it('is failed and its staged rows dropped once its lease expired; a job still vouched for is left alone', async () => {
    const target = await server(100);
    const live = await importLeftRunning(target, 120, 500);
    const dead = await importLeftRunning(target, -1, 20_000);
    const beforeLeases = await importLeftRunning(target, null, 100);
    // The reaper marks the job failed, then drops its stage in a second statement: wait for both (a stage that is
    // never dropped times the wait out).
    expect(
      await untilValue(
        () => job(target, dead),
        (row) => row.state !== 'running' && row.staged === 0,
      ),
    ).toEqual({
      state: 'failed',
      message: IMPORT_MESSAGES.interrupted,
      staged: 0,
    });
    expect(
      (
        await untilValue(
          () => job(target, beforeLeases),
          (row) => row.state !== 'running',
        )
      ).staged,
    ).toBe(0);
    expect(await job(target, live)).toMatchObject({ state: 'running', staged: 500 });
  });

  it('cancels at once: the cancel ends the dead job (200, cancelled) and drops its rows, instead of a flag no one reads', async () => {
    const target = await server();
    const { accessToken } = await target.signIn(['CSM']);
    const dead = await importLeftRunning(target, -1, 2_000);
    const answer = await target.request('POST', `/csv/import/${dead}/cancel`, { token: accessToken.value });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: dead, state: 'cancelled', message: IMPORT_MESSAGES.cancelledByUser });
    expect(await job(target, dead)).toMatchObject({ state: 'cancelled', staged: 0 });
    // A job another live instance runs only gets the flag, which that instance reads at its next step.
    const elsewhere = await importLeftRunning(target, 120, 10);
    expect((await target.request('POST', `/csv/import/${elsewhere}/cancel`, { token: accessToken.value })).body).toMatchObject({ state: 'running' });
    const [{ flagged }] = await rows<{ flagged: boolean }>(
      target.database.db,
      sql`SELECT cancel_requested_at IS NOT NULL AS flagged FROM csv_imports WHERE id = ${elsewhere}`,
    );
    expect(flagged).toBe(true);
  });
});

describe('laboratory panels: a load whose instance died', () => {
  /** A project left pending with `members` panel rows, its lease `leaseSeconds` from now. */
  async function loadLeftPending(target: TestServer, leaseSeconds: number, members: number): Promise<number> {
    const [{ id }] = await rows<{ id: number }>(
      target.database.db,
      sql`WITH project AS (INSERT INTO lab_projects (name, pending, crits, lease_until)
                           VALUES ('Panel coupé', true, '{1}', now() + make_interval(secs => ${leaseSeconds})) RETURNING id),
               members AS (INSERT INTO lab_panel_members (project_id, line, name, email, crits)
                           SELECT project.id, n + 1, 'Nom' || n, 'p' || n || '@example.org', '{A}' FROM project, generate_series(1, ${members}) AS n)
          SELECT id FROM project`,
    );
    return id;
  }
  const left = async (target: TestServer, id: number) =>
    (
      await rows<{ projects: number; members: number }>(
        target.database.db,
        sql`SELECT (SELECT count(*)::int FROM lab_projects WHERE id = ${id}) AS projects, (SELECT count(*)::int FROM lab_panel_members WHERE project_id = ${id}) AS members`,
      )
    )[0];

  it('is removed with its members once its lease expired, as a failed load is; a load still vouched for stays', async () => {
    const target = await server(100);
    const live = await loadLeftPending(target, 120, 300);
    const dead = await loadLeftPending(target, -1, 60_000);
    expect(
      await untilValue(
        () => left(target, dead),
        (counts) => counts.projects === 0,
      ),
    ).toEqual({ projects: 0, members: 0 });
    expect(await left(target, live)).toEqual({ projects: 1, members: 300 });
  });
});
