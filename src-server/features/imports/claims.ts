import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from '../../db/client';
import { rows } from '../../db/rows';

/** First key of the imports' advisory locks (the second is the job's id); db/client.ts's migrations lock is 7201001. */
const LOCK_CLASS = 7201002;

/**
 * Which instance runs an import, on PostgreSQL (docs/operations.md, "Several instances"): the one holding the session
 * advisory lock (LOCK_CLASS, job id) on a connection of its own. PostgreSQL releases it when that session ends, whether
 * the instance stopped cleanly, crashed or lost its network, so an import whose runner is gone is one whose lock nobody
 * holds, and any other instance takes it over (ImportResumer). No lease to time and no migration: the lock is the claim.
 */
export class ImportClaims {
  private readonly held = new Map<number, pg.Client>();

  constructor(private readonly db: Database) {}

  /** Takes the job if no one holds it; `onLost` is told if the claim's session ends before release (stop the job). */
  async claim(id: number, onLost: () => void): Promise<boolean> {
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client((this.db as unknown as { $client: pg.Pool }).$client.options);
    client.on('error', () => undefined);
    await client.connect();
    const { rows: answer } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [LOCK_CLASS, id]);
    if (!answer[0]?.ok) {
      await client.end().catch(() => undefined);
      return false;
    }
    client.once('end', () => {
      if (this.held.get(id) === client) {
        this.held.delete(id);
        onLost();
      }
    });
    this.held.set(id, client);
    return true;
  }

  async release(id: number): Promise<void> {
    const client = this.held.get(id);
    this.held.delete(id);
    await client?.end().catch(() => undefined);
  }
}

/** Imports queued or running whose lock no session holds: their instance is gone. */
export async function orphanedImports(db: Database): Promise<number[]> {
  const found = await rows<{ id: number }>(
    db,
    sql`SELECT c.id FROM csv_imports c WHERE c.state IN ('queued', 'running') AND NOT EXISTS (
          SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ${LOCK_CLASS}::oid AND l.objid = c.id::oid
            AND l.objsubid = 2 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))
        ORDER BY c.id`,
  );
  return found.map((job) => job.id);
}
