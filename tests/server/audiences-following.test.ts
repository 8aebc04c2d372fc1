import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PopulationUser } from '@shared/contract/audiences/population';
import { openDatabase } from '../../src-server/db/client';
import { AudienceEngine } from '../../src-server/features/audiences/engine/engine';
import type { Criterion } from '../../src-server/features/audiences/engine/semantics';
import { ingestUsers } from '../../src-server/features/audiences/population';
import { rows } from '../../src-server/db/rows';
import { throwAwayPostgresDatabase } from '../helpers/database';
import { until } from '../helpers/until';

/** population_changes retention (docs/audiences.md "Several instances"): only PostgreSQL has followers. */

const appUser = (externalId: string, area: 'french' | 'english'): PopulationUser => ({
  externalId,
  email: `${externalId}@example.org`,
  name: externalId,
  area,
  roles: [],
  feeds: [],
  apps: [],
});
const english: Criterion[] = [{ nodeId: 0, label: 'Area', value: 'english', type: 'AND', kind: 'required', event: null, caping: null }];

describe.runIf(process.env.TEST_DATABASE_URL)('population_changes retention (PostgreSQL)', () => {
  it('prunes the changes every follower has read; an instance that fell behind rebuilds instead of missing them', async () => {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL!);
    const handle = await openDatabase({ url: database.url });
    const logger = pino({ level: 'silent' });
    const engines = [0, 1, 2].map(() => new AudienceEngine(handle.db, 'postgresql', logger));
    const [writer, follower, late] = engines;
    const retentionMs = 400;
    const changes = async () => (await rows<{ n: number }>(handle.db, sql`SELECT count(*)::int AS n FROM population_changes`))[0].n;
    try {
      for (const engine of engines) await engine.rebuild();
      follower.follow(50, retentionMs);

      await ingestUsers(handle.db, writer, [appUser('a', 'english')]);
      expect(await changes()).toBe(1);
      expect(await until(() => follower.index.size(english).size === 1)).toBe(true);
      // Kept for the retention after everything before it finished, then deleted by a follower.
      expect(await until(async () => (await changes()) === 0)).toBe(true);
      expect(follower.index.size(english).size).toBe(1);

      // `late` built before the change and never followed: replaying would find no row any more. It rebuilds.
      late.follow(50, retentionMs);
      expect(await until(() => late.index.size(english).size === 1)).toBe(true);

      // Following goes on after pruning: a later change still reaches the follower.
      await ingestUsers(handle.db, writer, [appUser('b', 'english')]);
      expect(await until(() => follower.index.size(english).size === 2)).toBe(true);
    } finally {
      for (const engine of engines) await engine.stop();
      await handle.close();
      await database.drop();
    }
  });

  it('keeps a change while its retention runs', async () => {
    const database = await throwAwayPostgresDatabase(process.env.TEST_DATABASE_URL!);
    const handle = await openDatabase({ url: database.url });
    const engine = new AudienceEngine(handle.db, 'postgresql', pino({ level: 'silent' }));
    try {
      await engine.rebuild();
      await ingestUsers(handle.db, engine, [appUser('a', 'english')]);
      await engine.followOnce();
      // Followed, but not yet for the retention: nothing deleted.
      expect(await engine.pruneChanges(60_000)).toBe(0);
      expect((await rows<{ n: number }>(handle.db, sql`SELECT count(*)::int AS n FROM population_changes`))[0].n).toBe(1);
    } finally {
      await engine.stop();
      await handle.close();
      await database.drop();
    }
  });
});
