import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { PROFESSIONS, SPECIALTIES } from '@shared/reference';
import { AREAS } from '@shared/rules/audiences';
import { buildApp } from '../../src-server/app';
import { openDatabase } from '../../src-server/db/client';
import { generatePopulation, random } from '../../src-server/features/audiences/generator';
import { rows } from '../../src-server/features/audiences/queries';
import { featureServices } from '../../src-server/feature-services';
import { pushJobOf } from '../../src-server/features/push';
import { targetingCriteria } from '@shared/rules/push';
import { ManualClock } from '../../tests/helpers/clock';
import { keptBenchDatabase } from '../databases';
import { ms, summarize, table } from '../stats';

/**
 * Issue 23 figures on the local PostgreSQL: 1,000,000 app users (BENCH_PUSH_USERS), most with a push token,
 * generated once into bench_push_<users> and kept. Count: POST /push/count over loopback HTTP for random targetings
 * (target p95 ≤ 20 ms). Send: the job's own work per batch of 1,000 (claim, select recipients and tokens, outbox
 * provider, messages, batch and campaign rows, commit), the 1.8 s pace taken out by a controlled clock (target ≤ 50 ms).
 */
const USERS = Number(process.env.BENCH_PUSH_USERS ?? 1_000_000);
const COUNTS = 300;
const BATCHES = 40;

export async function pushSection() {
  const url = await keptBenchDatabase(`bench_push_${USERS}`);
  const database = await openDatabase({ url });
  const { db } = database;
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM app_users`);
  if (count === 0) {
    console.log(`generating ${USERS.toLocaleString('fr-FR')} users (once; kept in ${new URL(url).pathname.slice(1)})`);
    const started = performance.now();
    await generatePopulation(db, { users: USERS, events: 0, seed: 42, documents: 0, adverts: 0, keywords: 0 });
    await db.execute(sql`ANALYZE`);
    console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const [{ lead }] = await rows<{ lead: number }>(
    db,
    sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES ('Bench push', ${`bench-push-${Date.now()}@x.test`}, 'x', '{CONTENT_CREATOR_LEAD}') RETURNING id AS lead`,
  );
  const clock = new ManualClock(Date.now());
  const built = performance.now();
  const app = await buildApp({
    db,
    dbKind: 'postgresql',
    clock,
    logger: pino({ level: 'silent' }),
    config: { pushIntervalMs: 0, autopublishIntervalMs: 0 },
  });
  const buildMs = performance.now() - built;
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const token = (await app.context.tokens.signAccess(lead, 'bench-push', new Date(Date.now() + 3_600_000))).value;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${address}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const loadAtStart = loadavg()[0];
  try {
    // ---- count ------------------------------------------------------------------------------------------------
    const next = random(23);
    const pick = <T>(list: readonly T[], most: number) => list.filter(() => next() < most / list.length);
    const samples: number[] = [];
    for (let round = 0; round < COUNTS + 20; round += 1) {
      const where = {
        area: AREAS[Math.floor(next() * AREAS.length)],
        professions: pick(
          PROFESSIONS.map((item) => item.id),
          4,
        ),
        specialties:
          next() < 0.5
            ? ['']
            : pick(
                SPECIALTIES.map((item) => item.id),
                10,
              ),
        titles: next() < 0.5 ? [''] : pick(['DOCTOR', 'STUDENT', 'PROFESSIONAL'], 2),
        os: next() < 0.5 ? [''] : ['iOS'],
        expert: (['all', 'experts', 'not-experts'] as const)[Math.floor(next() * 3)],
        clause: next() < 0.3 ? "not (feed in ('Oncologie', 'Urgences')) and app != 'Vidal'" : '',
      };
      const started = performance.now();
      await post('/push/count', { where });
      if (round >= 20) samples.push(performance.now() - started);
    }
    const countFigures = summarize(samples);
    // The engine's own part of a count (no HTTP, no validation): the same targetings again.
    const population = featureServices(app.context).population!;
    const again = random(23);
    const indexSamples: number[] = [];
    for (let round = 0; round < COUNTS; round += 1) {
      const where = {
        area: AREAS[Math.floor(again() * AREAS.length)],
        professions: PROFESSIONS.map((item) => item.id).filter(() => again() < 0.4),
        specialties: [''],
        titles: [''],
        os: again() < 0.5 ? [''] : ['iOS'],
        expert: (['all', 'experts', 'not-experts'] as const)[Math.floor(again() * 3)],
      };
      const started = performance.now();
      population.count(targetingCriteria(where));
      indexSamples.push(performance.now() - started);
    }
    const indexFigures = summarize(indexSamples);

    // ---- send: the job's own work per batch -------------------------------------------------------------------
    const where = { area: 'french', professions: [], specialties: [''], titles: [''], os: [''], expert: 'all', clause: '' };
    const { counter } = await post('/push/count', { where });
    const createdAt = performance.now();
    const campaign = await post('/push/campaigns', {
      notification: { title: 'Bench', body: 'Bench push', navigation: '', customId: 'custom01' },
      where,
    });
    const createMs = performance.now() - createdAt;
    const job = pushJobOf(app.context)!;
    const perBatch: number[] = [];
    for (let batch = 0; batch < BATCHES; batch += 1) {
      const started = performance.now();
      const outcomes = await job.runOnce();
      perBatch.push(performance.now() - started);
      if (outcomes.length !== 1 || outcomes[0].users !== 1000) throw new Error(`batch ${batch}: ${JSON.stringify(outcomes)}`);
      clock.advance(1800);
    }
    const batchFigures = summarize(perBatch.slice(2));
    await db.execute(sql`DELETE FROM push_campaigns WHERE id = ${campaign.id}`);

    table(`Push at ${USERS.toLocaleString('fr-FR')} users (load ${loadAtStart.toFixed(2)} at start)`, [
      ['server start (engine built, tokens included)', ms(buildMs)],
      [
        `count over HTTP, ${COUNTS} targetings p50 / p95 / max`,
        `${ms(countFigures.p50)} / ${ms(countFigures.p95)} / ${ms(countFigures.max)}  (target p95 ≤ 20 ms)`,
      ],
      [`count in the engine alone, p50 / p95`, `${ms(indexFigures.p50)} / ${ms(indexFigures.p95)}`],
      [`campaign created (${counter.toLocaleString('fr-FR')} recipients frozen)`, ms(createMs)],
      [
        `job work per batch of 1,000, p50 / p95 / max`,
        `${ms(batchFigures.p50)} / ${ms(batchFigures.p95)} / ${ms(batchFigures.max)}  (target ≤ 50 ms)`,
      ],
    ]);
    return {
      users: USERS,
      load: loadAtStart,
      buildMs,
      count: countFigures,
      countInEngine: indexFigures,
      createMs,
      recipients: counter,
      batch: batchFigures,
    };
  } finally {
    await app.close();
    await db.execute(sql`DELETE FROM accounts WHERE id = ${lead}`);
    await database.close();
  }
}
