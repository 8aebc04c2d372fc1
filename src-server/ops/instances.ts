import { sql } from 'drizzle-orm';
import { READINESS_MESSAGES as M } from '@shared/messages/api';
import type { Database } from '../db/client';
import { APPLICATION_NAME_PREFIX } from '../db/client';
import { rows } from '../db/rows';
import type { Readiness } from './readiness';

/** Other API instances connected to this PostgreSQL database now (each pool names its connections, db/client.ts). */
export async function otherInstances(db: Database): Promise<number> {
  const [row] = await rows<{ count: number }>(
    db,
    sql`SELECT count(DISTINCT application_name)::int AS count FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE ${`${APPLICATION_NAME_PREFIX}%`}
          AND application_name <> current_setting('application_name')`,
  );
  return row?.count ?? 0;
}

/**
 * Uploaded files in a local folder on a PostgreSQL database that several instances may share: each instance would
 * keep its uploads in its own folder, and the others answer 404 for them. Warned rather than refused
 * (docs/operations.md, "Several instances"): a folder every instance mounts (a shared volume) is a valid set-up the
 * server cannot tell from separate folders, and a lone instance must start. Logged at every start; GET /ready
 * carries it, naming how many other instances it sees on the database at that moment.
 */
export function warnOfLocalStorage(readiness: Readiness, db: Database, log: (message: string) => void): void {
  log(
    `${M.localStorageOnPostgres} (uploads are kept in this instance's local folder; several instances need STORAGE_S3_BUCKET or one shared folder)`,
  );
  readiness.warn('storage', async () => {
    const others = await otherInstances(db);
    return others > 0
      ? { errorMsg: M.localStorageShared(others), reason: `local storage folder while ${others} other instance(s) use this database` }
      : { errorMsg: M.localStorageOnPostgres, reason: 'local storage folder on a database several instances may share' };
  });
}
