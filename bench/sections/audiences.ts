import { request as httpRequest } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { buildApp } from '../../src-server/app';
import { openDatabase, type Database } from '../../src-server/db/client';
import { AudienceEngine } from '../../src-server/features/audiences/engine/engine';
import type { Criterion } from '../../src-server/features/audiences/engine/semantics';
import { generatePopulation, random } from '../../src-server/features/audiences/generator';
import { rows } from '../../src-server/db/rows';
import { sqlAudienceSize } from '../../tests/helpers/audience-sql';
import { ms, summarize, table } from '../stats';
import { keptBenchDatabase } from '../databases';

/**
 * Figures on the local PostgreSQL: 1,000,000 app users and 5,000,000 events by default
 * (BENCH_AUDIENCE_USERS, BENCH_AUDIENCE_EVENTS). The population is generated once into its own database
 * (bench_audiences_<users>_<events>) and kept for the next runs.
 */
const USERS = Number(process.env.BENCH_AUDIENCE_USERS ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_AUDIENCE_EVENTS ?? 5_000_000);

/** BENCH_AUDIENCE_INGEST_ONLY=1: the ingestion figure alone (no index build, sizes against SQL or membership). */
const INGEST_ONLY = process.env.BENCH_AUDIENCE_INGEST_ONLY === '1';

const populationDatabase = () => keptBenchDatabase(`bench_audiences_${USERS}_${EVENTS}`);

const median = (samples: number[]) => summarize(samples).p50;

function timeSync(times: number, work: () => unknown): number[] {
  const samples: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const start = performance.now();
    work();
    samples.push(performance.now() - start);
  }
  return samples;
}

export async function audiencesSection() {
  const url = await populationDatabase();
  const database = await openDatabase({ url });
  const { db } = database;
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM app_users`);
  let generationMs = 0;
  if (count === 0) {
    console.log(
      `generating ${USERS.toLocaleString('fr-FR')} users and ${EVENTS.toLocaleString('fr-FR')} events (once; kept in ${new URL(url).pathname.slice(1)})`,
    );
    const started = performance.now();
    let last = 0;
    await generatePopulation(db, {
      users: USERS,
      events: EVENTS,
      seed: 42,
      progress: (what, done, total) => {
        if (Date.now() - last > 10_000 || done === total) {
          last = Date.now();
          console.log(`  ${what} ${done}/${total} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
        }
      },
    });
    await db.execute(sql`ANALYZE`);
    generationMs = performance.now() - started;
  }

  // Timing figures mean little without the machine's load (the bench shares its cores): printed with them.
  const loadAtStart = loadavg()[0];
  const documents = await rows<{ id: number; value: string }>(db, sql`SELECT id, value FROM nodes WHERE label = 'Document' ORDER BY id LIMIT 100`);
  const engineFigures = INGEST_ONLY ? undefined : await engineSection(db, documents);

  // ---- ingestion through the API, index current at the answer ------------------------------------------------
  const token = 'bench-ingest-token';
  const app = await buildApp({ db, dbKind: 'postgresql', logger: pino({ level: 'silent' }), config: { ingestToken: token } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const document = documents[99];
  const users = await rows<{ externalId: string; area: string | null }>(
    db,
    sql`SELECT external_id AS "externalId", area FROM app_users ORDER BY id LIMIT 5000`,
  );
  const french = users.filter((user) => user.area === 'french').length;
  const [{ id: adminId }] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES ('Bench', ${`bench-${Date.now()}@bench.local`}, 'x', '{ADMIN}') RETURNING id`,
  );
  const adminToken = (await app.context.tokens.signAccess(adminId, 'bench-session', new Date(Date.now() + 3_600_000))).value;
  const call = async (path: string, body: unknown, bearer: string) => {
    const response = await fetch(`${address}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const ingestion: number[] = [];
  let currentAtAnswer = true;
  const runId = Date.now();
  // Each of the 5,000 users gets 10 more views of the document per batch. The body is serialised before the clock
  // starts, as the app platform sends it: the caller's own JSON.stringify is not the server's ingestion.
  const batchBody = (batch: number) =>
    Buffer.from(
      JSON.stringify(
        Array.from({ length: 50_000 }, (_, i) => ({
          eventId: `bench-${runId}-${batch}-${i}`,
          userExternalId: users[i % users.length].externalId,
          event: 'document.view',
          node: { label: 'Document', name: document.value },
          at: '2026-02-01T10:00:00Z',
        })),
      ),
    );
  const ingest = async (body: Buffer) => {
    const { status, answer } = await postBuffer(`${address}/population/events`, body, token);
    if (status !== 200) throw new Error(`/population/events: ${status} ${answer}`);
  };
  const viewersAtLeast = async (views: number) =>
    (
      await call(
        '/audience/size',
        { area: 'french', relationships: [{ node: { label: 'Document', id: document.id }, event: 'document.view', caping: views }] },
        adminToken,
      )
    ).size as number;
  const SEQUENTIAL = 5;
  for (let batch = 0; batch < SEQUENTIAL; batch += 1) {
    const body = batchBody(batch);
    const started = performance.now();
    await ingest(body);
    ingestion.push(performance.now() - started);
    currentAtAnswer &&= (await viewersAtLeast(10 * (batch + 1))) >= french;
  }
  // Sustained: two senders, each posting its batches one after the other (the server parses one batch while the
  // database writes the other's), 8 batches of 50,000 in all.
  const SUSTAINED = 8;
  const bodies = Array.from({ length: SUSTAINED }, (_, i) => batchBody(SEQUENTIAL + i));
  const sustainedStarted = performance.now();
  await Promise.all(
    [0, 1].map(async (sender) => {
      for (let i = sender; i < SUSTAINED; i += 2) await ingest(bodies[i]);
    }),
  );
  const sustainedMs = performance.now() - sustainedStarted;
  currentAtAnswer &&= (await viewersAtLeast(10 * (SEQUENTIAL + SUSTAINED))) >= french;
  await app.close();
  // The database's own share: the same rows (8 × 50,000, the same users and document) written by PostgreSQL alone,
  // one INSERT … SELECT per batch, each its own transaction: no HTTP, no JSON, no engine. The API cannot beat it.
  const floorStarted = performance.now();
  for (let batch = 0; batch < SUSTAINED; batch += 1)
    await db.execute(
      sql`INSERT INTO interaction_events (event_id, user_id, node_id, event, at)
          SELECT ${`bench-${runId}-floor-${batch}-`} || g, ids[g % 5000 + 1], ${document.id}, 'document.view', '2026-02-01T10:00:00Z'
          FROM generate_series(0, 49999) AS g, (SELECT array_agg(id ORDER BY id) AS ids FROM (SELECT id FROM app_users ORDER BY id LIMIT 5000) AS first) AS chosen`,
    );
  const floorMs = performance.now() - floorStarted;
  // The kept database stays as generated for the next runs' figures.
  await db.execute(sql`DELETE FROM interaction_events WHERE event_id LIKE ${`bench-${runId}-%`}`);
  await db.execute(sql`DELETE FROM accounts WHERE id = ${adminId}`);
  // The CI machines' PostgreSQL runs without autovacuum: the deleted events would stay as dead rows and index
  // entries, and each later run would ingest into a larger table (2.6 million dead rows after four runs).
  await db.execute(sql`VACUUM (ANALYZE) interaction_events`);
  await database.close();

  const rate = (50_000 / median(ingestion)) * 1000;
  const sustainedRate = ((SUSTAINED * 50_000) / sustainedMs) * 1000;
  const figures = engineFigures;
  table(`Audience engine, ${USERS.toLocaleString('fr-FR')} users / ${EVENTS.toLocaleString('fr-FR')} events (PostgreSQL)`, [
    ...(generationMs ? ([['population generated in', ms(generationMs)]] as [string, string][]) : []),
    ...(figures
      ? ([
          ['index build', `${ms(figures.build.ms)}, +${figures.rssMb.toFixed(0)} MB RSS, bitmaps ${figures.bitmapsMb.toFixed(0)} MB`],
          [`SQL's own (node, event, user) index, bench only`, `built in ${ms(figures.sqlIndexMs)}, dropped before ingestion`],
          ...figures.sizeRows,
          [
            'membership of one user in 1,000 audiences',
            `median ${ms(median(figures.membership))}, p95 ${ms(summarize(figures.membership).p95)} (${(figures.memberships / 200).toFixed(0)} audiences matched per user on average)`,
          ],
        ] as [string, string][])
      : ([['index build, sizes and membership', 'skipped (BENCH_AUDIENCE_INGEST_ONLY=1)']] as [string, string][])),
    ['load average (1 min) at the start and the end', `${loadAtStart.toFixed(1)}, ${loadavg()[0].toFixed(1)} (${cpus().length} cores)`],
    [
      'ingestion of 50,000 events through the API, one request at a time',
      `median ${ms(median(ingestion))} of ${SEQUENTIAL} → ${Math.round(rate).toLocaleString('fr-FR')} events/s`,
    ],
    ['sustained ingestion, two senders, 8 × 50,000 events', `${ms(sustainedMs)} → ${Math.round(sustainedRate).toLocaleString('fr-FR')} events/s`],
    ['index current at every answer', String(currentAtAnswer)],
    [
      'the same 8 × 50,000 rows by PostgreSQL alone (INSERT … SELECT)',
      `${ms(floorMs)} → ${Math.round(((SUSTAINED * 50_000) / floorMs) * 1000).toLocaleString('fr-FR')} events/s`,
    ],
  ]);
  return {
    users: USERS,
    events: EVENTS,
    loadAverage: { start: loadAtStart, end: loadavg()[0] },
    generationMs,
    ...(figures ? { build: { ms: figures.build.ms, rssMb: figures.rssMb }, sizes: figures.sizes, membershipMs: summarize(figures.membership) } : {}),
    ingestion: {
      ms: summarize(ingestion),
      eventsPerSecond: rate,
      sustained: { ms: sustainedMs, eventsPerSecond: sustainedRate },
      databaseAlone: { ms: floorMs, eventsPerSecond: ((SUSTAINED * 50_000) / floorMs) * 1000 },
      currentAtAnswer,
    },
  };
}

/**
 * A POST of a ready body with node:http. fetch, in this same process, takes about twice as long to hand 10 MB to
 * the socket (its stream machinery), time that is the client's and not the server's.
 */
function postBuffer(url: string, body: Buffer, bearer: string): Promise<{ status: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${bearer}` } },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, answer }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Index build, reference sizes against plain SQL and one user's membership in 1,000 audiences. */
async function engineSection(db: Database, documents: { id: number; value: string }[]) {
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const engine = new AudienceEngine(db, 'postgresql', pino({ level: 'silent' }));
  const build = await engine.rebuild();
  const rssAfter = process.memoryUsage().rss;

  // ---- reference audiences ----------------------------------------------------------------------------------
  const node = async (label: string, value: string) => {
    const [found] = await rows<{ id: number }>(db, sql`SELECT id FROM nodes WHERE label = ${label} AND value = ${value}`);
    if (!found) throw new Error(`no node ${label} ${value}`);
    return found.id;
  };
  await db.execute(sql`DELETE FROM audiences WHERE name LIKE 'bench %'`);
  await db.execute(sql`DELETE FROM nodes WHERE label = 'OrGroup' AND name = 'bench group'`);
  const [{ id: groupId }] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO nodes (label, value, name) VALUES ('OrGroup', gen_random_uuid()::text, 'bench group') RETURNING id`,
  );
  await db.execute(sql`INSERT INTO audience_groups (node_id) VALUES (${groupId})`);
  for (const [label, value] of [
    ['Profession', '3'],
    ['Profession', '4'],
    ['Profession', '5'],
    ['Profession', '6'],
    ['Profession', '9'],
    ['Specialty', '6'],
    ['Specialty', '15'],
    ['Specialty', '35'],
  ]) {
    await db.execute(sql`INSERT INTO relationships (group_id, node_id) VALUES (${groupId}, ${await node(label, value)})`);
  }
  const audience = async (name: string, members: { nodeId: number; kind?: string; event?: string }[]) => {
    const [{ id }] = await rows<{ id: number }>(db, sql`INSERT INTO audiences (name, area) VALUES (${name}, 'french') RETURNING id`);
    for (const member of [{ nodeId: await node('Area', 'french') }, ...members]) {
      await db.execute(
        sql`INSERT INTO relationships (audience_id, node_id, kind, event) VALUES (${id}, ${member.nodeId}, ${member.kind ?? 'required'}, ${member.event ?? null})`,
      );
    }
    return id;
  };
  const references = {
    '2 professions × 3 specialties × area × not prospect × one of 2 documents': await audience('bench 1', [
      { nodeId: await node('Profession', '2') },
      { nodeId: await node('Profession', '3') },
      { nodeId: await node('Specialty', '1') },
      { nodeId: await node('Specialty', '6') },
      { nodeId: await node('Specialty', '15') },
      { nodeId: await node('Role', 'ROLE_PROSPECT'), kind: 'not' },
      { nodeId: documents[0].id, event: 'document.view' },
      { nodeId: documents[1].id, event: 'document.view' },
    ]),
    'OrGroup of 5 professions or 3 specialties': await audience('bench 2', [{ nodeId: groupId }]),
    'area × any of 100 documents viewed': await audience(
      'bench 3',
      documents.map((document) => ({ nodeId: document.id, event: 'document.view' })),
    ),
  };
  await engine.reloadGroups(db, [groupId]);
  await engine.reloadAudiences(db, Object.values(references));

  // The product keeps no (node, event, user) index (each costs every ingested event; the engine needs none): plain
  // SQL gets one for its reference figures only, else each Document criterion is a scan of every event.
  const sqlIndexStarted = performance.now();
  await db.execute(sql`CREATE INDEX IF NOT EXISTS bench_interaction_events_node_idx ON interaction_events (node_id, event, user_id)`);
  await db.execute(sql`ANALYZE interaction_events`);
  const sqlIndexMs = performance.now() - sqlIndexStarted;
  const sizeRows: [string, string][] = [];
  const sizes: Record<string, unknown> = {};
  for (const [name, id] of Object.entries(references)) {
    const criteria = engine.audience(id)!.criteria;
    const engineMs = median(timeSync(50, () => engine.index.size(criteria)));
    const sqlSamples: number[] = [];
    let sqlSize = 0;
    // Three runs, or fewer when one takes minutes (an OR of 100 documents over 5,000,000 events).
    for (let i = 0; i < 3 && sqlSamples.reduce((total, sample) => total + sample, 0) < 20_000; i += 1) {
      const started = performance.now();
      sqlSize = await sqlAudienceSize(db, id);
      sqlSamples.push(performance.now() - started);
    }
    const engineSize = engine.index.size(criteria).size;
    const sqlMs = median(sqlSamples);
    sizes[name] = { engineSize, sqlSize, engineMs, sqlMs, speedup: sqlMs / engineMs };
    sizeRows.push([name, `engine ${ms(engineMs)} (size ${engineSize}), SQL ${ms(sqlMs)} (size ${sqlSize}), ×${(sqlMs / engineMs).toFixed(0)}`]);
  }

  await db.execute(sql`DROP INDEX bench_interaction_events_node_idx`);

  // ---- one user's membership in 1,000 audiences ---------------------------------------------------------------
  const next = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const documentCriteria = documents.map((document) => ({ nodeId: document.id, value: document.value }));
  const thousand: Criterion[][] = Array.from({ length: 1000 }, () => {
    const criteria: Criterion[] = [
      { nodeId: 0, label: 'Area', value: pick(['french', 'english']), type: 'AND', kind: 'required', event: null, caping: null },
    ];
    for (let i = 0; i < 1 + Math.floor(next() * 3); i += 1)
      criteria.push({
        nodeId: 0,
        label: 'Profession',
        value: String(pick([2, 3, 4, 5, 9])),
        type: 'AND',
        kind: 'required',
        event: null,
        caping: null,
      });
    for (let i = 0; i < Math.floor(next() * 3); i += 1)
      criteria.push({
        nodeId: 0,
        label: 'Specialty',
        value: String(1 + Math.floor(next() * 52)),
        type: 'AND',
        kind: 'required',
        event: null,
        caping: null,
      });
    if (next() < 0.5) criteria.push({ nodeId: 0, label: 'Role', value: 'ROLE_PROSPECT', type: 'AND', kind: 'not', event: null, caping: null });
    if (next() < 0.4) {
      const document = pick(documentCriteria);
      criteria.push({
        nodeId: document.nodeId,
        label: 'Document',
        value: document.value,
        type: 'AND',
        kind: 'required',
        event: 'document.view',
        caping: pick([null, 2]),
      });
    }
    return criteria;
  });
  // Saved audiences are compiled once (engine.audiencesOf does the same through index.matcher); then one user at a time.
  for (const criteria of thousand) engine.index.matcher(criteria);
  let memberships = 0;
  const membership = timeSync(200, () => {
    const userId = 1 + Math.floor(next() * USERS);
    for (const criteria of thousand) if (engine.index.matcher(criteria)(userId)) memberships += 1;
  });

  return {
    build,
    rssMb: (rssAfter - rssBefore) / 1e6,
    bitmapsMb: engine.index.bytes() / 1e6,
    sqlIndexMs,
    sizeRows,
    sizes,
    membership,
    memberships,
  };
}
