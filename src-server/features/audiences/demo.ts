import { sql } from 'drizzle-orm';
import { isArticleCriterionLabel, type CriteriaByLabel } from '@shared/rules/article-audience';
import type { DemoPopulationSize } from '../../context';
import type { Database } from '../../db/client';
import type { ArticleAudienceService } from '../../feature-services';
import { DEMO_APPS, DEMO_FEEDS, generatePopulation } from './generator';
import { rows } from '../../db/rows';
import { upsertNodes } from './queries/nodes';

/** The demo workspace's population; tests may ask for fewer users (config.seedAudienceDemo). */
export const FULL_DEMO: DemoPopulationSize = { users: 20_000, events: 200_000 };

type Member = { label: string; value: string; kind?: 'required' | 'not'; event?: string; caping?: number };

/**
 * The demo workspace's population (`--demo`): about 20,000 app users and 200,000 events, a dozen named audiences
 * and three groups that make sense. Runs while no audience exists; the generation is idempotent, so a start
 * interrupted during the seeding completes it next time. Small batches: the server answers in between.
 */
export async function seedAudienceDemo(db: Database, signal?: AbortSignal, size: DemoPopulationSize = FULL_DEMO): Promise<boolean> {
  const [{ count }] = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM audiences`);
  if (count > 0) return false;
  const small = size.users < FULL_DEMO.users;
  const population = await generatePopulation(db, {
    users: size.users,
    events: size.events,
    seed: 2026,
    documents: small ? 20 : 300,
    adverts: small ? 5 : 40,
    keywords: small ? 10 : 100,
    // PGlite runs queries on the server's own thread: short statements keep every answer waiting a fraction of a second.
    userBatch: 250,
    eventBatch: 2_500,
    signal,
  });
  signal?.throwIfAborted();
  const [doc1, doc2, doc3] = population.documents;

  await db.transaction(async (tx) => {
    // Attribute nodes exist already with their display names (kept); a value nobody has yet gets its node.
    const existing = async ({ label, value }: Member) => {
      const [found] = await rows<{ id: number }>(tx, sql`SELECT id FROM nodes WHERE label = ${label} AND value = ${value}`);
      return found?.id ?? (await upsertNodes(tx, [{ label, value, name: value }]))[0].id;
    };
    const group = async (name: string, label: 'OrGroup' | 'AndGroup', members: Member[]) => {
      const [{ id }] = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO nodes (label, value, name) VALUES (${label}, gen_random_uuid()::text, ${name}) RETURNING id`,
      );
      await tx.execute(sql`INSERT INTO audience_groups (node_id) VALUES (${id})`);
      for (const member of members) {
        await tx.execute(
          sql`INSERT INTO relationships (group_id, node_id, kind, event, caping) VALUES (${id}, ${await existing(member)}, ${member.kind ?? 'required'}, ${member.event ?? null}, ${member.caping ?? null})`,
        );
      }
      return { label, value: '', id } as const;
    };
    const cardio = await group('Appétence cardio', 'OrGroup', [
      { label: 'Specialty', value: '6' },
      { label: 'Feed', value: 'Cardiologie' },
      { label: 'Document', value: doc1, event: 'document.view' },
    ]);
    const prescribers = await group('Prescripteurs de ville', 'AndGroup', [
      { label: 'Title', value: 'DOCTOR' },
      { label: 'Workplace', value: 'Cabinet libéral' },
    ]);
    const digital = await group(
      'Utilisateurs d’outils',
      'OrGroup',
      DEMO_APPS.slice(0, 3).map((app) => ({ label: 'App', value: app })),
    );

    const audience = async (
      name: string,
      type: string,
      area: string,
      members: (Member | { id: number; label: string; kind?: 'required' | 'not' })[],
      isInCatalog = false,
    ) => {
      const [{ id }] = await rows<{ id: number }>(
        tx,
        sql`INSERT INTO audiences (name, type, area, is_in_catalog, author_name) VALUES (${name}, ${type}, ${area}, ${isInCatalog}, 'Claire Durand') RETURNING id`,
      );
      for (const member of [{ label: 'Area', value: area } as Member, ...members]) {
        const nodeId = 'id' in member ? member.id : await existing(member);
        const event = 'event' in member ? (member.event ?? null) : null;
        const caping = 'caping' in member ? (member.caping ?? null) : null;
        await tx.execute(
          sql`INSERT INTO relationships (audience_id, node_id, kind, event, caping) VALUES (${id}, ${nodeId}, ${member.kind ?? 'required'}, ${event}, ${caping})`,
        );
      }
    };
    const expert = { label: 'Role', value: 'ROLE_EXPERT' };
    const notProspect: Member = { label: 'Role', value: 'ROLE_PROSPECT', kind: 'not' };
    await audience(
      'Médecins généralistes experts',
      'timeline',
      'french',
      [{ label: 'Profession', value: '2' }, { label: 'Specialty', value: '1' }, expert],
      true,
    );
    await audience('Cardiologues France', 'timeline', 'french', [{ label: 'Specialty', value: '6' }, expert, notProspect], true);
    await audience('Appétence cardio (experts)', 'timeline', 'french', [cardio, expert]);
    await audience(
      'Pharmaciens d’officine',
      'story',
      'french',
      [{ label: 'Profession', value: '4' }, { label: 'Workplace', value: 'Officine' }, expert],
      true,
    );
    await audience('Infirmiers libéraux', 'notification', 'french', [
      { label: 'Profession', value: '3' },
      { label: 'Workplace', value: 'Cabinet libéral' },
      expert,
    ]);
    await audience('Lecteurs du guide HTA', 'timeline', 'french', [{ label: 'Document', value: doc1, event: 'document.view', caping: 2 }, expert]);
    await audience('Documents cardio-diabète', 'timeline', 'french', [
      { label: 'Document', value: doc2 },
      { label: 'Document', value: doc3 },
      expert,
      notProspect,
    ]);
    await audience(
      'Île-de-France experts',
      'banner',
      'french',
      ['75', '77', '78', '91', '92', '93', '94', '95'].map((zip) => ({ label: 'Zip', value: zip }) as Member).concat([expert]),
    );
    await audience('Prescripteurs de ville', 'timeline', 'french', [prescribers, expert, notProspect]);
    await audience('Utilisateurs d’outils', 'tool', 'french', [digital, expert]);
    await audience('Doctors UK', 'timeline', 'english', [{ label: 'Title', value: 'DOCTOR' }, expert], true);
    await audience('Búsqueda diabetes', 'search', 'spanish', [{ label: 'Feed', value: DEMO_FEEDS[1] }, expert]);
  });
  return true;
}

/**
 * The demo articles' own audiences (adverts-articles.md §2.5; §5: an article needs an Area criterion): each article
 * linked to a saved audience gets that audience's required nodes of the article labels and its area as criteria,
 * so a demo article saves as the editor checks it. Articles that have their own audience already are left alone.
 */
export async function seedArticleAudienceDemo(db: Database, articleAudience: ArticleAudienceService): Promise<number> {
  const linked = await rows<{ articleId: number; area: string; nodeId: number | null; label: string | null }>(
    db,
    sql`SELECT aa.article_id AS "articleId", a.area, n.id AS "nodeId", n.label
        FROM article_audiences aa JOIN audiences a ON a.id = aa.audience_id
        LEFT JOIN relationships r ON r.audience_id = a.id AND r.kind = 'required'
        LEFT JOIN nodes n ON n.id = r.node_id
        WHERE a.article_id IS NULL AND NOT EXISTS (SELECT 1 FROM audiences own WHERE own.article_id = aa.article_id)
        ORDER BY aa.article_id, n.id`,
  );
  const byArticle = new Map<number, { area: string; criteria: CriteriaByLabel }>();
  for (const row of linked) {
    const entry = byArticle.get(row.articleId) ?? { area: row.area, criteria: {} };
    byArticle.set(row.articleId, entry);
    if (row.nodeId !== null && row.label && isArticleCriterionLabel(row.label) && row.label !== 'Area')
      (entry.criteria[row.label] ??= []).push(row.nodeId);
  }
  for (const [articleId, { area, criteria }] of byArticle) {
    const areaNode = (await articleAudience.search('Area', area, 10)).find((node) => node.name === area);
    if (!areaNode) continue;
    await articleAudience.setCriteria(articleId, { ...criteria, Area: [areaNode.id] }, null);
  }
  return byArticle.size;
}
