import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PopulationUser } from '@shared/contract/audiences/population';
import type { BulkUsers } from '../../src-server/features/audiences/engine/engine';
import { openDatabase, type DatabaseHandle } from '../../src-server/db/client';
import { AudienceEngine } from '../../src-server/features/audiences/engine/engine';
import { attributeValues, type Criterion } from '../../src-server/features/audiences/engine/semantics';
import { ingestUsers } from '../../src-server/features/audiences/population';
import { rows } from '../../src-server/db/rows';
import { userAttributeColumns, type UserAttributeRow } from '../../src-server/features/audiences/queries/population';
import { mergeStagedUsers } from '../../src-server/features/audiences/staged-merge';
import { throwAwayPostgresDatabase } from '../helpers/database';
import { until } from '../helpers/until';

/**
 * The set-based merge of staged users (the CSV list import, docs/imports.md): new and existing users, several chunks, the
 * engine applied in bulk equal to an engine rebuilt from the database, every attribute node there, and on
 * PostgreSQL another instance following the bulk changes to the same index. PGlite, or PostgreSQL with TEST_DATABASE_URL.
 */

const CRITERIA: [string, string][] = [
  ['Area', 'french'],
  ['Area', 'english'],
  ['Profession', '2'],
  ['Profession', '4'],
  ['Specialty', '26'],
  ['Title', 'DOCTOR'],
  ['Zipcode', '75001'],
  ['Zip', '75'],
  ['Zip', '69'],
  ['Role', 'ROLE_EXPERT'],
  ['Feed', 'cardio'],
  ['Os', 'iOS'],
  ['Os', 'Android'],
  ['Workplace', 'Lyon'],
];
const criterion = ([label, value]: [string, string]): Criterion[] => [
  { nodeId: 0, label: label as Criterion['label'], value, type: 'AND', kind: 'required', event: null, caping: null },
];

const existing = (n: number): PopulationUser => ({
  externalId: `old-${String(n).padStart(3, '0')}`,
  email: `old${n}@example.org`,
  name: `Old ${n}`,
  professionId: 2,
  area: 'english',
  zipcode: '69002',
  roles: n % 2 ? ['ROLE_EXPERT'] : [],
  feeds: ['cardio'],
  apps: [],
  os: 'Android',
});

async function stage(handle: DatabaseHandle): Promise<void> {
  // 40 existing users found (some values changed, some left empty: kept), 160 new ones; old-012 is staged with
  // only empty values or those it holds: left as it was, not counted as updated.
  const staged = Array.from({ length: 200 }, (_, i) => {
    const update = i < 40;
    return {
      line: i + 2,
      external_id: update ? `old-${String(i).padStart(3, '0')}` : `new-${String(i).padStart(3, '0')}`,
      email: update && i % 3 === 0 ? null : `staged${i}@example.org`,
      name: i % 4 === 0 ? null : `Staged ${i}`,
      profession_id: i % 5 === 0 ? null : 2 + (i % 3),
      specialty_id: i % 2 ? 26 : null,
      title: i % 7 === 0 ? 'DOCTOR' : null,
      area: i % 3 === 0 ? null : i % 3 === 1 ? 'french' : 'english',
      zipcode: i % 6 === 0 ? null : `7500${i % 3}`,
      workplace: i % 9 === 0 ? 'Lyon' : null,
      os: i % 4 === 1 ? 'iOS' : null,
      roles: i % 8 === 0 ? 'ROLE_EXPERT|ROLE_OTHER' : null,
      feeds: i % 10 === 0 ? 'cardio' : null,
    };
  });
  await handle.db.execute(sql`
    INSERT INTO csv_import_rows (import_id, line, external_id, email, name, profession_id, specialty_id, title, area, zipcode, workplace, os, roles, feeds)
    SELECT 1, r.line, r.external_id, r.email, r.name, r.profession_id, r.specialty_id, r.title, r.area, r.zipcode, r.workplace, r.os,
           string_to_array(r.roles, '|'), string_to_array(r.feeds, '|')
    FROM jsonb_to_recordset(${JSON.stringify(staged)}::jsonb) AS r(line int, external_id text, email text, name text, profession_id int,
         specialty_id int, title text, area text, zipcode text, workplace text, os text, roles text, feeds text)`);
}

/** A database (PGlite, or a throw-away PostgreSQL one) holding the 40 existing users, with a writer engine built on it. */
async function openPopulation() {
  const postgres = process.env.TEST_DATABASE_URL ? await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const handle = await openDatabase(postgres ? { url: postgres.url } : {});
  const logger = pino({ level: 'silent' });
  const kind = postgres ? 'postgresql' : 'pglite';
  const writer = new AudienceEngine(handle.db, kind, logger);
  await ingestUsers(
    handle.db,
    writer,
    Array.from({ length: 40 }, (_, n) => existing(n)),
  );
  await writer.rebuild();
  return { postgres, handle, logger, kind, writer } as const;
}

async function closePopulation({ postgres, handle, writer }: Pick<Awaited<ReturnType<typeof openPopulation>>, 'postgres' | 'handle' | 'writer'>) {
  await writer.stop();
  await handle.close();
  await postgres?.drop();
}

describe('staged users merged in bulk', () => {
  // 200 staged users: chunks of 64 end on a partial one; chunks of 100 end exactly on the last user.
  it.each([
    [64, [64, 128, 192, 200]],
    [100, [100, 200]],
  ])(
    'writes new and existing users in chunks of %i, their nodes, and an engine equal to a rebuild (and to a follower)',
    async (chunkSize, steps) => {
      const { postgres, handle, logger, kind, writer } = await openPopulation();
      const follower = new AudienceEngine(handle.db, kind, logger);
      try {
        await follower.rebuild();
        if (postgres) follower.follow(50);
        await stage(handle);
        const version = writer.attributesVersion;
        const progress: number[] = [];
        const result = await mergeStagedUsers(
          handle.db,
          writer,
          { table: sql`csv_import_rows`, where: sql`import_id = 1` },
          { chunkSize, onProgress: (written) => void progress.push(written) },
        );
        expect(result).toEqual({ inserted: 160, updated: 39 });
        expect(progress).toEqual(steps);
        expect(writer.attributesVersion).toBeGreaterThan(version);

        // Values the stage leaves empty are kept.
        const [kept] = await rows<{ email: string; area: string; os: string }>(
          handle.db,
          sql`SELECT email, area, os FROM app_users WHERE external_id = 'old-000'`,
        );
        expect(kept).toEqual({ email: 'old0@example.org', area: 'english', os: 'Android' });

        const rebuilt = new AudienceEngine(handle.db, kind, logger);
        await rebuilt.rebuild();
        expect(rebuilt.index.userCount).toBe(200);
        for (const pair of CRITERIA) {
          const expected = rebuilt.index.size(criterion(pair)).size;
          expect(writer.index.size(criterion(pair)).size, pair.join(' ')).toBe(expected);
          if (postgres) expect(await until(() => follower.index.size(criterion(pair)).size === expected), `follower ${pair.join(' ')}`).toBe(true);
        }

        // Every attribute node of every user, User nodes named by their e-mail.
        const users = await rows<UserAttributeRow>(handle.db, sql`SELECT ${userAttributeColumns} FROM app_users`);
        const nodes = await rows<{ label: string; value: string; name: string }>(handle.db, sql`SELECT label, value, name FROM nodes`);
        const known = new Map(nodes.map((node) => [`${node.label}\u0000${node.value}`, node.name]));
        for (const user of users) {
          for (const [label, value] of attributeValues(user)) expect(known.has(`${label}\u0000${value}`), `${label} ${value}`).toBe(true);
          expect(known.get(`User\u0000${user.id}`)).toBe(user.email || String(user.id));
        }
        expect(known.get('Profession\u00002')).not.toBe('2');

        // The same list again: every user found, none written nor counted 'mis à jour' (no value changes), the engine still right.
        const [{ last }] = await rows<{ last: string }>(handle.db, sql`SELECT max(updated_at)::text AS last FROM app_users`);
        const again = await mergeStagedUsers(handle.db, writer, { table: sql`csv_import_rows`, where: sql`import_id = 1` }, { chunkSize });
        expect(again).toEqual({ inserted: 0, updated: 0 });
        const [{ lastAgain }] = await rows<{ lastAgain: string }>(handle.db, sql`SELECT max(updated_at)::text AS "lastAgain" FROM app_users`);
        expect(lastAgain).toBe(last);
        for (const pair of CRITERIA)
          expect(writer.index.size(criterion(pair)).size, `again ${pair.join(' ')}`).toBe(rebuilt.index.size(criterion(pair)).size);
      } finally {
        await follower.stop();
        await closePopulation({ postgres, handle, writer });
      }
    },
    60_000,
  );
  it("merges a user someone creates between a chunk's update and its new users, the engine still equal to a rebuild", async () => {
    const { postgres, handle, logger, kind, writer } = await openPopulation();
    try {
      await stage(handle);
      // Someone creates new-150 while the chunk's existing users are updated: the next statement, the merge of the
      // chunk's new users, finds it there (a statement trigger is the deterministic way to land in between).
      await handle.db.execute(sql`CREATE FUNCTION someone_creates() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
          INSERT INTO app_users (external_id, email, area, os, roles) VALUES ('new-150', 'someone@example.org', 'english', 'Android', '{ROLE_EXPERT}')
          ON CONFLICT DO NOTHING;
          RETURN NULL;
        END $$`);
      await handle.db.execute(sql`CREATE TRIGGER someone_creates AFTER UPDATE ON app_users FOR EACH STATEMENT EXECUTE FUNCTION someone_creates()`);
      const result = await mergeStagedUsers(handle.db, writer, { table: sql`csv_import_rows`, where: sql`import_id = 1` }, { chunkSize: 250 });
      expect(result).toEqual({ inserted: 159, updated: 40 });
      const [created] = await rows<{ email: string; area: string; feeds: string[] }>(
        handle.db,
        sql`SELECT email, area, feeds FROM app_users WHERE external_id = 'new-150'`,
      );
      expect(created).toEqual({ email: 'staged150@example.org', area: 'english', feeds: ['cardio'] });
      const rebuilt = new AudienceEngine(handle.db, kind, logger);
      await rebuilt.rebuild();
      for (const pair of CRITERIA) expect(writer.index.size(criterion(pair)).size, pair.join(' ')).toBe(rebuilt.index.size(criterion(pair)).size);
    } finally {
      await closePopulation({ postgres, handle, writer });
    }
  }, 60_000);
  // Two connections: PostgreSQL only.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'publishes the value a user held when someone changed it while the merge was updating it (not the one it read before)',
    async () => {
      const { postgres, handle, writer } = await openPopulation();
      const someone = new pg.Client({ connectionString: postgres!.url });
      await someone.connect();
      try {
        await stage(handle);
        // Someone moves old-001 to 13001 and holds the row until the merge's update waits on it, then commits: the
        // merge read 69002 before; the update in place finds another row version and the chunk is done again, locked.
        await someone.query('BEGIN');
        await someone.query(`UPDATE app_users SET zipcode = '13001' WHERE external_id = 'old-001'`);
        const merged = mergeStagedUsers(handle.db, writer, { table: sql`csv_import_rows`, where: sql`import_id = 1` }, { chunkSize: 250 });
        const waits = await until(async () => {
          const { rows: waiting } = await someone.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          return waiting.length > 0;
        });
        expect(waits).toBe(true);
        await someone.query('COMMIT');
        expect(await merged).toEqual({ inserted: 160, updated: 39 });

        const [{ id, zipcode }] = await rows<{ id: number; zipcode: string }>(
          handle.db,
          sql`SELECT id, zipcode FROM app_users WHERE external_id = 'old-001'`,
        );
        expect(zipcode).toBe('75001');
        const changes = await rows<{ payload: BulkUsers }>(handle.db, sql`SELECT payload FROM population_changes WHERE kind = 'usersBulk'`);
        const removed = new Map<string, number[]>();
        for (const { payload } of changes) {
          const bytes = Buffer.from(payload.removedIds, 'base64');
          const ids = Array.from({ length: bytes.length / 4 }, (_, at) => bytes.readUInt32LE(at * 4));
          let at = 0;
          for (const run of payload.removed)
            run.values.forEach((value, index) => {
              removed.set(`${run.label} ${value}`, [...(removed.get(`${run.label} ${value}`) ?? []), ...ids.slice(at, at + run.counts[index])]);
              at += run.counts[index];
            });
        }
        expect(removed.get('Zipcode 13001')).toEqual([id]);
        expect(removed.get('Zipcode 69002') ?? []).not.toContain(id);
      } finally {
        await someone.end();
        await closePopulation({ postgres, handle, writer });
      }
    },
    60_000,
  );
});
