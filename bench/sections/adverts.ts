import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import Papa from 'papaparse';
import pino from 'pino';
import { buildApp } from '../../src-server/app';
import { openDatabase } from '../../src-server/db/client';
import { rows } from '../../src-server/features/adverts/store';
import { ms, summarize, table } from '../stats';
import { keptBenchDatabase } from '../databases';

/**
 * Figures on the local PostgreSQL: 100,000 adverts (10,000 published) and 20,000 articles, attached to
 * 200 audiences (BENCH_ADVERTS, BENCH_ARTICLES). Generated once into their own database and kept for the next
 * runs. Targets: first list page with 3 filters and a sort p95 ≤ 20 ms server-side; decisioning for one user
 * over the 10,000 published adverts ≤ 5 ms median; CSV export of 1,000 rows ≤ 1 s end to end.
 */
const ADVERTS = Number(process.env.BENCH_ADVERTS ?? 100_000);
const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 20_000);
const PUBLISHED = Math.round(ADVERTS / 10);
const AUDIENCES = 200;
const SPECIALTIES = 20;
const RUNS = Number(process.env.BENCH_ADVERTS_RUNS ?? 200);

const benchDatabase = () => keptBenchDatabase(`bench_adverts_${ADVERTS}_${ARTICLES}`);

const TYPES = `(ARRAY['post','video','quiz','story','search','notification','tool','banner'])`;

async function generate(db: Parameters<typeof rows>[0]) {
  const now = Math.floor(Date.now() / 1000);
  await db.execute(sql`INSERT INTO app_users (external_id, email, name, profession_id, specialty_id, area, roles)
    SELECT 'bench-' || g, 'bench' || g || '@example.org', 'Bench ' || g, 2, 1 + g % ${SPECIALTIES}, 'french', ARRAY['ROLE_EXPERT'] FROM generate_series(1, 5000) g`);
  await db.execute(sql`INSERT INTO nodes (label, value, name) VALUES ('Role', 'ROLE_EXPERT', 'ROLE_EXPERT'), ('Area', 'french', 'french')
    ON CONFLICT (label, value) DO NOTHING`);
  await db.execute(sql`INSERT INTO nodes (label, value, name) SELECT 'Specialty', g::text, 'Spécialité ' || g FROM generate_series(1, ${SPECIALTIES}) g
    ON CONFLICT (label, value) DO NOTHING`);
  await db.execute(
    sql`INSERT INTO audiences (name, type, area, is_in_catalog) SELECT 'Audience ' || g, 'timeline', 'french', g % 3 = 0 FROM generate_series(1, ${AUDIENCES}) g`,
  );
  await db.execute(sql`INSERT INTO relationships (audience_id, node_id)
    SELECT a.id, n.id FROM audiences a JOIN nodes n ON (n.label = 'Role' AND n.value = 'ROLE_EXPERT') OR (n.label = 'Area' AND n.value = 'french')
      OR (n.label = 'Specialty' AND n.value = (1 + (substring(a.name from 10)::int) % ${SPECIALTIES})::text)`);
  const items = (table: 'adverts' | 'articles', count: number, published: number) =>
    sql`INSERT INTO ${sql.raw(table)} (name, type, published, archived, weight, created_at, updated_at, published_at, data)
        SELECT 'Campagne ' || g || ' ' || (ARRAY['cardio','diabète','HTA','vaccin','dermato'])[1 + g % 5],
               ${sql.raw(TYPES)}[1 + g % 7], g <= ${published}, g % 17 = 0, 1 + g % 10,
               ${now} - g * 60, ${now} - (g * 7919) % 8000000, CASE WHEN g <= ${published} THEN ${now} - g END,
               jsonb_build_object('title', 'Titre ' || g, 'author', 'Laboratoire ' || (g % 40), 'source', 'https://lab' || (g % 40) || '.example/' || g,
                                  'logo', 'https://cdn.example/logo/' || (g % 40) || '.png', 'images', jsonb_build_array('https://cdn.example/c/' || g || '.jpg'),
                                  'subtitle', 'Partenariat sponsorisé', 'buttonLabel', 'Découvrir', 'footNote', 'x', 'tagline', repeat('Texte ', 20))
        FROM generate_series(1, ${count}) g`;
  await db.execute(items('adverts', ADVERTS, PUBLISHED));
  await db.execute(items('articles', ARTICLES, Math.round(ARTICLES / 5)));
  await db.execute(
    sql`INSERT INTO advert_audiences (advert_id, audience_id) SELECT i.id, (SELECT min(id) FROM audiences) + i.id % ${AUDIENCES} FROM adverts i`,
  );
  await db.execute(
    sql`INSERT INTO article_audiences (article_id, audience_id) SELECT i.id, (SELECT min(id) FROM audiences) + i.id % ${AUDIENCES} FROM articles i`,
  );
  await db.execute(sql`ANALYZE`);
}

export async function advertsSection() {
  const url = await benchDatabase();
  const database = await openDatabase({ url });
  const { db } = database;
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM adverts`);
  let generationMs = 0;
  if (count === 0) {
    console.log(
      `generating ${ADVERTS.toLocaleString('fr-FR')} adverts and ${ARTICLES.toLocaleString('fr-FR')} articles (once; kept in ${new URL(url).pathname.slice(1)})`,
    );
    const started = performance.now();
    await generate(db);
    generationMs = performance.now() - started;
  }
  const app = await buildApp({ db, dbKind: 'postgresql', logger: pino({ level: 'silent' }), config: { autopublishIntervalMs: 0 } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const [{ id: adminId }] = await rows<{ id: number }>(
    db,
    sql`INSERT INTO accounts (name, email, password_hash, roles) VALUES ('Bench', ${`bench-${Date.now()}@x.test`}, 'x', '{CSM,CSM_LEAD}') RETURNING id`,
  );
  const token = (await app.context.tokens.signAccess(adminId, 'bench-session', new Date(Date.now() + 3_600_000))).value;
  const inject = async (method: 'POST' | 'GET', path: string, body?: object) => {
    const response = await app.inject({ method, url: path, headers: { authorization: `Bearer ${token}` }, ...(body ? { payload: body } : {}) });
    if (response.statusCode >= 300) throw new Error(`${path}: ${response.statusCode} ${response.body}`);
    return JSON.parse(response.body);
  };
  const sample = async (work: () => Promise<unknown>, runs = RUNS) => {
    for (let i = 0; i < 10; i += 1) await work();
    const samples: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const start = performance.now();
      await work();
      samples.push(performance.now() - start);
    }
    return summarize(samples);
  };

  // ---- list: first page, 3 filters and a sort (server side: inject, no socket) -------------------------------
  const lists = {
    'published + type + not archived, updatedAt DESC': {
      published: true,
      type: 'post',
      archived: false,
      orderBy: 'updatedAt',
      order: 'DESC',
      limit: 25,
    },
    'store default (not archived, latest, updatedAt DESC)': { archived: false, model: 'latest', orderBy: 'updatedAt', order: 'DESC', limit: 25 },
    'specialty + isExpert + type, weight DESC': {
      specialties: [3],
      isExpert: 'ROLE_EXPERT',
      type: 'video',
      orderBy: 'weight',
      order: 'DESC',
      limit: 25,
    },
    'term + published + not archived, name ASC': { term: 'diabète', published: true, archived: false, orderBy: 'name', order: 'ASC', limit: 25 },
  };
  const listFigures: Record<string, ReturnType<typeof summarize>> = {};
  for (const [label, body] of Object.entries(lists)) listFigures[label] = await sample(() => inject('POST', '/adverts', body));
  const articleList = await sample(() =>
    inject('POST', '/article/list', { published: true, archived: false, type: 'post', orderBy: 'updatedAt', order: 'DESC', limit: 25 }),
  );

  // ---- decisioning: one user over the published adverts --------------------------------------------------------
  const [{ userId }] = await rows<{ userId: number }>(db, sql`SELECT id AS "userId" FROM app_users WHERE external_id = 'bench-7'`);
  const first = await inject('POST', '/v2/advert', { userId, types: ['post', 'video', 'quiz', 'story', 'search', 'notification', 'tool', 'banner'] });
  const [{ candidates }] = await rows<{ candidates: number }>(
    db,
    sql`SELECT count(DISTINCT l.advert_id)::int AS candidates FROM advert_audiences l JOIN adverts i ON i.id = l.advert_id
        WHERE i.published AND NOT i.archived AND l.audience_id = ANY(${sql.param(first.audiences.map((a: { id: number }) => a.id))}::int[])`,
  );
  const decisioning = await sample(() =>
    inject('POST', '/v2/advert', { userId, types: ['post', 'video', 'quiz', 'story', 'search', 'notification', 'tool', 'banner'] }),
  );

  // ---- CSV export: 1,000 rows over HTTP, written as CSV (what main does) -----------------------------------------
  const exportOnce = async () => {
    const response = await fetch(`${address}/adverts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ skip: 0, limit: 1000, published: true }),
    });
    const { items } = (await response.json()) as { items: Record<string, unknown>[] };
    const csv = Papa.unparse(
      items.map((item) => ({ ...item, _$audiences: (item._$audiences as { name: string }[]).map((a) => a.name).join('|'), _$targets: '' })),
    );
    writeFileSync(join(tmpdir(), 'bench-adverts-export.csv'), csv);
    return items.length;
  };
  const exported = await exportOnce();
  const csvExport = await sample(exportOnce, 20);

  await app.close();
  await database.close();

  table(
    `List (${ADVERTS.toLocaleString('fr-FR')} adverts, ${ARTICLES.toLocaleString('fr-FR')} articles; server side, ${RUNS} runs; target p95 ≤ 20 ms)`,
    [
      ...Object.entries(listFigures).map(([label, figures]) => [label, `p50 ${ms(figures.p50)}  p95 ${ms(figures.p95)}`] as [string, string]),
      ['articles: published + type + not archived', `p50 ${ms(articleList.p50)}  p95 ${ms(articleList.p95)}`],
    ],
  );
  table(
    `Decisioning (one user in ${first.audiences.length} audiences, ${candidates} eligible of ${PUBLISHED.toLocaleString('fr-FR')} published; target median ≤ 5 ms)`,
    [['POST /v2/advert', `p50 ${ms(decisioning.p50)}  p95 ${ms(decisioning.p95)}  (${first.adverts.length} served)`]],
  );
  table('CSV export (skip 0, limit 1000, published true; HTTP + CSV file; target ≤ 1 s)', [
    ['rows', String(exported)],
    ['end to end', `p50 ${ms(csvExport.p50)}  p95 ${ms(csvExport.p95)}`],
  ]);
  if (generationMs) table('Generation (once)', [['adverts, articles, audiences', ms(generationMs)]]);
  return { listFigures, articleList, decisioning, candidates, csvExport, generationMs };
}
