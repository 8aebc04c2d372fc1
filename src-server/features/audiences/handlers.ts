import { sql } from 'drizzle-orm';
import type { ArticleAudienceCriteria } from '@shared/contract/articles';
import type { Audience, Group, Relationship, RelationshipInput } from '@shared/contract/audiences';
import { MESSAGES } from '@shared/messages';
import { ARTICLE_CRITERION_LABELS, isArticleCriterionLabel } from '@shared/rules/article-audience';
import { AREAS, ITEM_EVENTS, isGroupLabel, TITLES, type AudienceType } from '@shared/rules/audiences';
import type { ServerContext } from '../../context';
import { foldForSearch } from '../../db/schema';
import { featureServices } from '../../feature-services';
import { HttpError } from '../../errors';
import type { Handlers } from '../../operations';
import type { AudienceEngine } from './engine/engine';
import { GroupCycleError, reachableGroups, type Criterion } from './engine/semantics';
import { ingestEvents, ingestUsers } from './population';
import {
  audienceRelationships,
  groupRelationships,
  nodesById,
  param,
  rows,
  searchNodes,
  upsertNodes,
  usersByEmailPrefix,
  type Executor,
  type RelationshipRow,
} from './queries';

export type AudienceHandlers = Pick<
  Handlers,
  | 'population.users'
  | 'population.events'
  | 'audiences.size'
  | 'audiences.debug'
  | 'audiences.membership'
  | 'appUsers.byEmail'
  | 'appUsers.search'
  | 'appUsers.reset'
  | 'nodes.search'
  | 'nodes.keyword'
  | 'audiences.list'
  | 'audiences.get'
  | 'audiences.create'
  | 'audiences.update'
  | 'audiences.duplicate'
  | 'audiences.delete'
  | 'audiences.bulkDelete'
  | 'audiences.setRelationships'
  | 'relationships.create'
  | 'graph.delete'
  | 'graph.detach'
  | 'audiences.attachEmails'
  | 'audiences.search'
  | 'groups.create'
  | 'groups.update'
  | 'groups.delete'
  | 'groups.get'
  | 'groups.list'
  | 'groups.duplicate'
  | 'groups.attachDocuments'
>;

interface AudienceRow {
  id: number;
  name: string;
  type: AudienceType | null;
  area: Audience['area'];
  isInCatalog: boolean;
  authorName: string;
  createdAt: Date | string;
  roles: string[];
}

const audienceColumns = sql`a.id, a.name, a.type, a.area, a.is_in_catalog AS "isInCatalog", a.author_name AS "authorName", a.created_at AS "createdAt",
  coalesce((SELECT array_agg(DISTINCT n.value) FROM relationships r JOIN nodes n ON n.id = r.node_id
            WHERE r.audience_id = a.id AND n.label = 'Role' AND r.kind = 'required'), '{}') AS roles`;

/** A relationship to insert: its node resolved and checked. */
interface NewRelationship {
  nodeId: number;
  type: Criterion['type'];
  kind: Criterion['kind'];
  event: string | null;
  caping: number | null;
}

function toRelationship(row: RelationshipRow): Relationship {
  const event = (row.event as Relationship['event']) ?? null;
  return {
    id: row.id,
    source: row.audienceId ?? row.groupId!,
    target: row.nodeId,
    node: { id: row.nodeId, label: row.label, name: row.name },
    type: row.type,
    kind: row.kind,
    event,
    caping: row.caping === null ? null : String(row.caping),
    action: event,
  };
}

const millis = (value: Date | string) => new Date(value).getTime();

/** An audience as the list and the editor show it, without its relationships. Adverts arrive with their issue. */
function audienceSummary(row: AudienceRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    area: row.area,
    createdAt: millis(row.createdAt),
    isUsed: false,
    isInCatalog: row.isInCatalog,
    author: row.authorName,
    adverts: [],
    roles: row.roles,
  };
}

/** What changed in a write of definitions, as the engine and the hooks learn it. */
export interface ChangedDefinitions {
  audiences?: number[];
  groups?: number[];
  deletedNodes?: number[];
}

/** A write of definitions: its work runs in one transaction; the engine follows after the commit. */
export type DefinitionsWriter = <T>(work: (tx: Executor) => Promise<ChangedDefinitions & { result: T }>) => Promise<T>;

/**
 * Called inside the transaction of every write of audiences and groups (the history feature records there, so a
 * change and its history commit together); `connect` hands the writer over (restoring a deleted audience).
 */
export interface DefinitionWriteHooks {
  before(tx: Executor): Promise<unknown>;
  after(tx: Executor, changed: ChangedDefinitions, before: unknown): Promise<void>;
  connect?(write: DefinitionsWriter): void;
}

export function audienceHandlers(context: ServerContext, engine: AudienceEngine, hooks?: DefinitionWriteHooks): AudienceHandlers {
  const { db } = context;

  // ---- loading ------------------------------------------------------------------------------------------------

  async function loadAudience(executor: Executor, id: number): Promise<Audience> {
    const [row] = await rows<AudienceRow>(executor, sql`SELECT ${audienceColumns} FROM audiences a WHERE a.id = ${id}`);
    if (!row) throw new HttpError(404, MESSAGES.audienceNotFound);
    const relationships = (await audienceRelationships(executor, [id])).map(toRelationship);
    const groupedRelationships: Record<string, Relationship[]> = {};
    for (const relationship of relationships) (groupedRelationships[relationship.node.label] ??= []).push(relationship);
    return { ...audienceSummary(row), relationships, groupedRelationships };
  }

  async function loadGroup(executor: Executor, id: number, label?: string): Promise<Group> {
    const [row] = await rows<{ id: number; name: string; label: Group['label']; updatedAt: Date | string; audiencesCount: number }>(
      executor,
      sql`SELECT g.node_id AS id, n.name, n.label, g.updated_at AS "updatedAt",
            (SELECT count(DISTINCT r.audience_id)::int FROM relationships r WHERE r.node_id = g.node_id AND r.audience_id IS NOT NULL) AS "audiencesCount"
          FROM audience_groups g JOIN nodes n ON n.id = g.node_id WHERE g.node_id = ${id}`,
    );
    if (!row || (label && row.label !== label)) throw new HttpError(404, MESSAGES.groupNotFound);
    const relationships = (await groupRelationships(executor, [id])).map(toRelationship);
    return {
      id: row.id,
      name: row.name,
      label: row.label,
      relationships,
      labels: [...new Set(relationships.map((relationship) => relationship.node.label))],
      audiencesCount: row.audiencesCount,
      updatedAt: millis(row.updatedAt),
    };
  }

  // ---- checking relationships ---------------------------------------------------------------------------------

  /**
   * Resolves and checks relationships before they are written: nodes exist with the label given, events fit the
   * label, Keyword only outside timeline audiences (and with the event 'search' on search audiences, spec §4), no
   * Area (the area field owns it), no group that contains the owner group.
   */
  async function resolve(
    executor: Executor,
    inputs: readonly RelationshipInput[],
    owner: { audienceType: AudienceType | null } | { groupId: number },
  ): Promise<NewRelationship[]> {
    const nodes = new Map((await nodesById(executor, [...new Set(inputs.map((input) => input.node.id))])).map((node) => [node.id, node]));
    const resolved = inputs.map((input, index): NewRelationship => {
      const node = nodes.get(input.node.id);
      const where = `relationships.${index}`;
      if (!node || node.label !== input.node.label) throw new HttpError(400, MESSAGES.nodeNotFound, {}, `${where}.node`);
      if (node.label === 'Area') throw new HttpError(400, MESSAGES.areaInRelationships, {}, `${where}.node`);
      if (input.event && !(ITEM_EVENTS[node.label as keyof typeof ITEM_EVENTS] as readonly string[] | undefined)?.includes(input.event)) {
        throw new HttpError(400, MESSAGES.eventNotForLabel, {}, `${where}.event`);
      }
      let { type, event } = input;
      if (node.label === 'Keyword' && 'audienceType' in owner) {
        if (owner.audienceType === 'timeline') throw new HttpError(400, MESSAGES.keywordOnTimeline, {}, `${where}.node`);
        if (owner.audienceType === 'search') [type, event] = ['SEARCH', 'search'];
      }
      return { nodeId: node.id, type, kind: input.kind, event: event ?? null, caping: input.caping ?? null };
    });
    if ('groupId' in owner) {
      const groupIds = resolved.filter((relationship) => isGroupLabel(nodes.get(relationship.nodeId)!.label)).map((relationship) => relationship.nodeId);
      const members = groupIds.map((id) => ({ nodeId: id, label: nodes.get(id)!.label })) as Criterion[];
      if (groupIds.includes(owner.groupId) || reachableGroups(members, (id) => engine.index.group(id)).has(owner.groupId)) {
        throw new HttpError(400, MESSAGES.groupCycle);
      }
    }
    // The same node twice is one relationship (spec §4: a relationship is not added to a group twice).
    return [...new Map(resolved.map((relationship) => [relationship.nodeId, relationship])).values()];
  }

  async function areaNode(executor: Executor, area: string): Promise<number> {
    const [node] = await upsertNodes(executor, [{ label: 'Area', value: area, name: area }]);
    return node.id;
  }

  async function insertRelationships(executor: Executor, owner: { audienceId: number } | { groupId: number }, list: NewRelationship[]): Promise<void> {
    if (!list.length) return;
    const ownerColumn = 'audienceId' in owner ? sql.raw('audience_id') : sql.raw('group_id');
    const ownerId = 'audienceId' in owner ? owner.audienceId : owner.groupId;
    await executor.execute(
      sql`INSERT INTO relationships (${ownerColumn}, node_id, type, kind, event, caping)
          SELECT ${ownerId}, * FROM unnest(${param(list.map((r) => r.nodeId))}::int[], ${param(list.map((r) => r.type))}::text[],
            ${param(list.map((r) => r.kind))}::text[], ${param(list.map((r) => r.event))}::text[], ${param(list.map((r) => r.caping))}::int[])`,
    );
  }

  /** Replaces an audience's relationships, keeping exactly one Area relationship for its area. */
  async function writeAudienceRelationships(executor: Executor, audienceId: number, area: string, list: NewRelationship[]): Promise<void> {
    await executor.execute(sql`DELETE FROM relationships WHERE audience_id = ${audienceId}`);
    const area_ = { nodeId: await areaNode(executor, area), type: 'AND' as const, kind: 'required' as const, event: null, caping: null };
    await insertRelationships(executor, { audienceId }, [area_, ...list]);
  }

  /**
   * Runs a write of audience or group definitions: other instances are told which ones changed, and this
   * engine reloads them from the database after the commit, before the answer.
   */
  async function writeDefinitions<T>(
    work: (tx: Executor) => Promise<{ result: T; audiences?: number[]; groups?: number[]; deletedNodes?: number[] }>,
  ): Promise<T> {
    let changed: { result: T; audiences?: number[]; groups?: number[]; deletedNodes?: number[] } | undefined;
    await db.transaction(async (tx) => {
      await engine.ownTransaction(tx);
      const before = await hooks?.before(tx);
      changed = await work(tx);
      await hooks?.after(tx, changed, before);
      if (changed.deletedNodes?.length) await engine.publish(tx, { kind: 'nodesDeleted', payload: { ids: changed.deletedNodes } });
      if (changed.groups?.length) await engine.publish(tx, { kind: 'groups', payload: { ids: changed.groups } });
      if (changed.audiences?.length) await engine.publish(tx, { kind: 'audiences', payload: { ids: changed.audiences } });
    });
    engine.deleteNodes(changed!.deletedNodes ?? []);
    await engine.reloadGroups(db, changed!.groups ?? []);
    await engine.reloadAudiences(db, changed!.audiences ?? []);
    return changed!.result;
  }

  async function audienceExists(executor: Executor, id: number): Promise<AudienceRow> {
    const [row] = await rows<AudienceRow>(executor, sql`SELECT ${audienceColumns} FROM audiences a WHERE a.id = ${id} FOR UPDATE`);
    if (!row) throw new HttpError(404, MESSAGES.audienceNotFound);
    return row;
  }

  async function groupExists(executor: Executor, id: number): Promise<{ name: string; label: Group['label'] }> {
    const [row] = await rows<{ name: string; label: Group['label'] }>(
      executor,
      sql`SELECT n.name, n.label FROM audience_groups g JOIN nodes n ON n.id = g.node_id WHERE g.node_id = ${id} FOR UPDATE OF g`,
    );
    if (!row) throw new HttpError(404, MESSAGES.groupNotFound);
    return row;
  }

  async function authorName(accountId: number | undefined): Promise<string> {
    if (!accountId) return '';
    const [row] = await rows<{ name: string }>(db, sql`SELECT name FROM accounts WHERE id = ${accountId}`);
    return row?.name ?? '';
  }

  /** Audiences and groups that point at these nodes (to reload once the nodes go). */
  async function ownersOf(executor: Executor, nodeIds: number[]) {
    const owners = await rows<{ audienceId: number | null; groupId: number | null }>(
      executor,
      sql`SELECT DISTINCT audience_id AS "audienceId", group_id AS "groupId" FROM relationships WHERE node_id = ANY(${param(nodeIds)}::int[])`,
    );
    return { audiences: owners.flatMap((o) => (o.audienceId ? [o.audienceId] : [])), groups: owners.flatMap((o) => (o.groupId ? [o.groupId] : [])) };
  }

  /** Removes relationships by (source, target) and, for `nodes`, every relationship to them. */
  async function removeRelationships(executor: Executor, pairs: { source: number; target: number }[], nodes: number[]) {
    const removed = await rows<{ audienceId: number | null; groupId: number | null }>(
      executor,
      sql`DELETE FROM relationships r
          WHERE (coalesce(r.audience_id, r.group_id), r.node_id) IN (SELECT * FROM unnest(${param(pairs.map((p) => p.source))}::int[], ${param(pairs.map((p) => p.target))}::int[]))
             OR (r.node_id = ANY(${param(nodes)}::int[]) AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = r.node_id AND n.label = 'Area'))
          RETURNING r.audience_id AS "audienceId", r.group_id AS "groupId"`,
    );
    return {
      count: removed.length,
      audiences: [...new Set(removed.flatMap((r) => (r.audienceId ? [r.audienceId] : [])))],
      groups: [...new Set(removed.flatMap((r) => (r.groupId ? [r.groupId] : [])))],
    };
  }

  async function createGroup(executor: Executor, name: string, label: Group['label']): Promise<number> {
    const [node] = await rows<{ id: number }>(
      executor,
      sql`INSERT INTO nodes (label, value, name) VALUES (${label}, gen_random_uuid()::text, ${name}) RETURNING id`,
    );
    await executor.execute(sql`INSERT INTO audience_groups (node_id) VALUES (${node.id})`);
    return node.id;
  }

  async function copyRelationships(executor: Executor, from: { audienceId: number } | { groupId: number }, to: { audienceId: number } | { groupId: number }) {
    const fromColumn = sql.raw('audienceId' in from ? 'audience_id' : 'group_id');
    const toColumn = sql.raw('audienceId' in to ? 'audience_id' : 'group_id');
    const fromId = 'audienceId' in from ? from.audienceId : from.groupId;
    const toId = 'audienceId' in to ? to.audienceId : to.groupId;
    await executor.execute(
      sql`INSERT INTO relationships (${toColumn}, node_id, type, kind, event, caping)
          SELECT ${toId}, node_id, type, kind, event, caping FROM relationships WHERE ${fromColumn} = ${fromId} ORDER BY id`,
    );
  }

  hooks?.connect?.(writeDefinitions);

  /** The criteria of an unsaved definition (the editor's live size and tester), its Area first. */
  async function unsavedCriteria(body: { area: Audience['area']; type?: AudienceType | null; relationships: RelationshipInput[] }): Promise<Criterion[]> {
    const resolved = await resolve(db, body.relationships, { audienceType: body.type ?? null });
    const nodes = new Map((await nodesById(db, resolved.map((r) => r.nodeId))).map((node) => [node.id, node]));
    const criteria: Criterion[] = resolved.map((r) => ({ ...r, label: nodes.get(r.nodeId)!.label, value: nodes.get(r.nodeId)!.value }));
    criteria.unshift({ nodeId: 0, label: 'Area', value: body.area, type: 'AND', kind: 'required', event: null, caping: null });
    return criteria;
  }

  function withCycleCheck<T>(run: () => T): T {
    try {
      return run();
    } catch (error) {
      if (error instanceof GroupCycleError) throw new HttpError(400, MESSAGES.groupCycle);
      throw error;
    }
  }

  // ---- an article's own audience (adverts-articles.md §2.5) ----------------------------------------------------

  async function articleCriteria(executor: Executor, articleId: number): Promise<ArticleAudienceCriteria> {
    const [owned] = await rows<{ id: number }>(executor, sql`SELECT id FROM audiences WHERE article_id = ${articleId}`);
    if (!owned) return { audienceId: null, criteria: [] };
    const found = await rows<{ id: number; label: string; name: string }>(
      executor,
      sql`SELECT n.id, n.label, n.name FROM relationships r JOIN nodes n ON n.id = r.node_id
          WHERE r.audience_id = ${owned.id} ORDER BY n.label, lower(n.name), n.id`,
    );
    const criteria = found.flatMap((node) => (isArticleCriterionLabel(node.label) ? [{ ...node, label: node.label }] : []));
    return { audienceId: owned.id, criteria };
  }

  async function articleExists(executor: Executor, articleId: number, lock: boolean): Promise<void> {
    const [row] = await rows(executor, sql`SELECT id FROM articles WHERE id = ${articleId} ${lock ? sql`FOR UPDATE` : sql``}`);
    if (!row) throw new HttpError(404, MESSAGES.articleNotFound);
  }

  /** Area and Title have fixed values: their nodes exist before anyone searches them. */
  let fixedNodesMade: Promise<unknown> | undefined;
  const makeFixedNodes = () =>
    (fixedNodesMade ??= upsertNodes(db, [
      ...AREAS.map((area) => ({ label: 'Area', value: area, name: area })),
      ...TITLES.map((title) => ({ label: 'Title', value: title, name: title })),
    ]).catch((error) => {
      fixedNodesMade = undefined;
      throw error;
    }));

  featureServices(context).articleAudience = {
    get: async (articleId) => {
      await articleExists(db, articleId, false);
      return articleCriteria(db, articleId);
    },

    /**
     * Replaces the article's criteria in one transaction (the audience made on the first write, linked to the
     * article in place of any saved audience); the engine reloads it after the commit like any audience write.
     */
    setCriteria: async (articleId, byLabel, account) => {
      const author = await authorName(account?.id);
      return writeDefinitions(async (tx) => {
        await articleExists(tx, articleId, true);
        const wanted = ARTICLE_CRITERION_LABELS.flatMap((label) => [...new Set(byLabel[label] ?? [])].map((id) => ({ label, id })));
        const nodes = new Map((await nodesById(tx, [...new Set(wanted.map((entry) => entry.id))])).map((node) => [node.id, node]));
        for (const entry of wanted) {
          const node = nodes.get(entry.id);
          if (!node || node.label !== entry.label) throw new HttpError(400, MESSAGES.nodeNotFound, {}, `criteria.${entry.label}`);
        }
        const area = (wanted.find((entry) => entry.label === 'Area') && nodes.get(wanted.find((entry) => entry.label === 'Area')!.id)!.value) || 'french';
        let [owned] = await rows<{ id: number }>(tx, sql`SELECT id FROM audiences WHERE article_id = ${articleId} FOR UPDATE`);
        if (!owned) {
          [owned] = await rows<{ id: number }>(tx, sql`SELECT nextval('nodes_id_seq')::int AS id`);
          await tx.execute(
            sql`INSERT INTO audiences (id, name, type, area, is_in_catalog, author_id, author_name, article_id)
                VALUES (${owned.id}, ${`Article ${articleId}`}, 'timeline', ${area}, false, ${account?.id ?? null}, ${author}, ${articleId})`,
          );
        } else {
          await tx.execute(sql`UPDATE audiences SET area = ${area}, updated_at = now() WHERE id = ${owned.id}`);
        }
        await tx.execute(sql`DELETE FROM relationships WHERE audience_id = ${owned.id}`);
        await insertRelationships(
          tx,
          { audienceId: owned.id },
          wanted.map((entry) => ({ nodeId: entry.id, type: 'AND' as const, kind: 'required' as const, event: null, caping: null })),
        );
        await tx.execute(sql`DELETE FROM article_audiences WHERE article_id = ${articleId}`);
        await tx.execute(sql`INSERT INTO article_audiences (article_id, audience_id) VALUES (${articleId}, ${owned.id})`);
        return { result: await articleCriteria(tx, articleId), audiences: [owned.id] };
      });
    },

    search: async (label, term, limit) => {
      if (label === 'Area' || label === 'Title') await makeFixedNodes();
      const found = await searchNodes(db, { term, limit, label, userDomains: null });
      return found.flatMap(({ id, label: found, name }) => (isArticleCriterionLabel(found) ? [{ id, label: found, name }] : []));
    },

    /** The article went (deleted or converted): its own audience goes too, the engine told like any delete. */
    drop: (articleId) =>
      writeDefinitions(async (tx) => {
        const dropped = await rows<{ id: number }>(tx, sql`DELETE FROM audiences WHERE article_id = ${articleId} RETURNING id`);
        return { result: dropped.length, audiences: dropped.map((row) => row.id) };
      }),
  };

  // ---- handlers -----------------------------------------------------------------------------------------------

  return {
    'population.users': async ({ body }) => ingestUsers(db, engine, body),
    'population.events': async ({ body }) => ingestEvents(db, engine, body),

    'audiences.size': async ({ body }) => {
      if ('audienceId' in body) {
        const definition = engine.audience(body.audienceId);
        if (!definition) throw new HttpError(404, MESSAGES.audienceNotFound);
        return engine.index.size(definition.criteria);
      }
      const criteria = await unsavedCriteria(body);
      return withCycleCheck(() => engine.index.size(criteria));
    },

    'audiences.membership': async ({ body }) => {
      const [user] = await rows<{ id: number }>(db, sql`SELECT id FROM app_users WHERE id = ${body.userId}`);
      if (!user) throw new HttpError(404, MESSAGES.appUserNotFound);
      const criteria = await unsavedCriteria(body);
      return withCycleCheck(() => engine.index.explain(user.id, criteria));
    },

    'audiences.debug': async ({ params }) => {
      const [user] = await rows<{ id: number }>(db, sql`SELECT id FROM app_users WHERE id = ${params.userId}`);
      if (!user) throw new HttpError(404, MESSAGES.appUserNotFound);
      return { audiences: engine.audiencesOf(user.id), adverts: (await featureServices(context).advertsForUser?.(user.id)) ?? [] };
    },

    'appUsers.byEmail': async ({ query }) => usersByEmailPrefix(db, query.email, 25),
    'appUsers.search': async ({ body }) => usersByEmailPrefix(db, body.term, body.limit),

    'appUsers.reset': async ({ params }) => {
      let pairs: [number, string][] = [];
      await db.transaction(async (tx) => {
        await engine.ownTransaction(tx);
        const [user] = await rows<{ id: number }>(tx, sql`SELECT id FROM app_users WHERE id = ${params.userId} FOR UPDATE`);
        if (!user) throw new HttpError(404, MESSAGES.appUserNotFound);
        const removed = await rows<{ nodeId: number; event: string }>(
          tx,
          sql`DELETE FROM interaction_events WHERE user_id = ${user.id} RETURNING node_id AS "nodeId", event`,
        );
        pairs = [...new Map(removed.map((row) => [`${row.nodeId}\u0000${row.event}`, [row.nodeId, row.event] as [number, string]])).values()];
        await engine.publish(tx, { kind: 'reset', payload: { userId: user.id, pairs } });
      });
      engine.resetUser(params.userId, pairs);
      return { id: params.userId, relsCount: 0 };
    },

    'nodes.search': async ({ query }) => {
      const found = await searchNodes(db, {
        term: query.term,
        limit: query.limit,
        label: query.label,
        userDomains: query.isGroup === 'true' ? null : context.config.companyEmailDomains,
        excludeAttachedTo: { audienceId: query.audienceId, groupId: query.groupId },
        // Spec §4: Feed, Document, App first on the group page only; elsewhere the criteria ranking (issue 21 item 13).
        order: query.isGroup === 'true' ? 'group' : 'criteria',
      });
      return found.map(({ id, label, name }) => ({ id, label, name }));
    },

    'nodes.keyword': async ({ body }) => {
      const [node] = await upsertNodes(db, [{ label: 'Keyword', value: body.name, name: body.name }]);
      return { id: node.id, label: node.label, name: node.name };
    },

    'audiences.list': async ({ query }) => {
      const orderColumn = { createdAt: sql`a.created_at`, name: sql`lower(a.name)`, id: sql`a.id` }[query.orderBy];
      const direction = sql.raw(query.order);
      const filters = [
        // An article's own audience (its inline criteria) is not one of the saved audiences.
        sql`a.article_id IS NULL`,
        query.term ? sql`${foldForSearch(sql`a.name`)} LIKE '%' || ${foldForSearch(sql`${query.term}`)} || '%'` : undefined,
        query.area ? sql`a.area = ${query.area}` : undefined,
        query.type ? sql`a.type = ${query.type}` : undefined,
        query.isInCatalog ? sql`a.is_in_catalog = ${query.isInCatalog === 'true'}` : undefined,
      ].filter(Boolean);
      const where = filters.length ? sql`WHERE ${sql.join(filters as ReturnType<typeof sql>[], sql` AND `)}` : sql``;
      // The page's ids first (the index on created_at, no per-row work), then the columns of those rows only: the
      // Role subquery for every audience before the LIMIT made the first page cost ~100 ms at 10,000 audiences.
      const found = await rows<AudienceRow & { total: number }>(
        db,
        sql`WITH page AS (
              SELECT a.id, count(*) OVER ()::int AS total FROM audiences a ${where}
              ORDER BY ${orderColumn} ${direction}, a.id ${direction} LIMIT ${query.limit} OFFSET ${query.skip}
            )
            SELECT ${audienceColumns}, page.total FROM page JOIN audiences a ON a.id = page.id
            ORDER BY ${orderColumn} ${direction}, a.id ${direction}`,
      );
      const total = found[0]?.total ?? (query.skip ? ((await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM audiences a ${where}`))[0]?.n ?? 0) : 0);
      return {
        items: found.map(audienceSummary),
        total,
      };
    },

    'audiences.get': async ({ params }) => loadAudience(db, params.id),

    'audiences.create': async ({ body, account }) => {
      const author = await authorName(account?.id);
      return writeDefinitions(async (tx) => {
        const relationships = await resolve(tx, body.relationships, { audienceType: body.type ?? null });
        const [{ id }] = await rows<{ id: number }>(tx, sql`SELECT nextval('nodes_id_seq')::int AS id`);
        await tx.execute(
          sql`INSERT INTO audiences (id, name, type, area, is_in_catalog, author_id, author_name)
              VALUES (${id}, ${body.name || `Audience ${id}`}, ${body.type ?? null}, ${body.area}, ${body.isInCatalog}, ${account?.id ?? null}, ${author})`,
        );
        await writeAudienceRelationships(tx, id, body.area, relationships);
        return { result: await loadAudience(tx, id), audiences: [id] };
      });
    },

    'audiences.update': async ({ params, body }) =>
      writeDefinitions(async (tx) => {
        const current = await audienceExists(tx, params.id);
        const type = body.type === undefined ? current.type : body.type;
        if (type === 'timeline') {
          const [keyword] = await rows(tx, sql`SELECT 1 FROM relationships r JOIN nodes n ON n.id = r.node_id WHERE r.audience_id = ${params.id} AND n.label = 'Keyword' LIMIT 1`);
          if (keyword) throw new HttpError(400, MESSAGES.keywordOnTimeline, {}, 'type');
        }
        await tx.execute(
          sql`UPDATE audiences SET name = ${body.name ?? current.name}, type = ${type}, area = ${body.area ?? current.area},
                is_in_catalog = ${body.isInCatalog ?? current.isInCatalog}, updated_at = now() WHERE id = ${params.id}`,
        );
        if (body.area && body.area !== current.area) {
          // Changing the area removes the old Area relationship and adds the new one (spec §4).
          await tx.execute(sql`DELETE FROM relationships r USING nodes n WHERE r.audience_id = ${params.id} AND n.id = r.node_id AND n.label = 'Area'`);
          await insertRelationships(tx, { audienceId: params.id }, [{ nodeId: await areaNode(tx, body.area), type: 'AND', kind: 'required', event: null, caping: null }]);
        }
        return { result: await loadAudience(tx, params.id), audiences: [params.id] };
      }),

    'audiences.duplicate': async ({ params, account }) => {
      const author = await authorName(account?.id);
      return writeDefinitions(async (tx) => {
        const current = await audienceExists(tx, params.id);
        const [{ id }] = await rows<{ id: number }>(tx, sql`SELECT nextval('nodes_id_seq')::int AS id`);
        await tx.execute(
          sql`INSERT INTO audiences (id, name, type, area, is_in_catalog, author_id, author_name)
              VALUES (${id}, ${`${current.name} (copie)`.slice(0, 200)}, ${current.type}, ${current.area}, ${current.isInCatalog}, ${account?.id ?? null}, ${author})`,
        );
        await copyRelationships(tx, { audienceId: params.id }, { audienceId: id });
        return { result: await loadAudience(tx, id), audiences: [id] };
      });
    },

    'audiences.delete': async ({ params }) =>
      writeDefinitions(async (tx) => {
        const deleted = await rows(tx, sql`DELETE FROM audiences WHERE id = ${params.id} RETURNING id`);
        if (!deleted.length) throw new HttpError(404, MESSAGES.audienceNotFound);
        return { result: { ok: true as const }, audiences: [params.id] };
      }),

    'audiences.bulkDelete': async ({ body }) =>
      writeDefinitions(async (tx) => {
        const deleted = await rows<{ id: number }>(tx, sql`DELETE FROM audiences WHERE id = ANY(${param(body.ids)}::int[]) RETURNING id`);
        return { result: { deleted: deleted.length }, audiences: deleted.map((row) => row.id) };
      }),

    'audiences.setRelationships': async ({ params, body }) =>
      writeDefinitions(async (tx) => {
        const current = await audienceExists(tx, params.id);
        // Spec §4: an audience is saved with at least one criterion besides its area (the editor says so first).
        if (!body.relationships.some((relationship) => relationship.node.label !== 'Area')) throw new HttpError(400, MESSAGES.audienceNeedsCriterion, {}, 'relationships');
        const relationships = await resolve(tx, body.relationships, { audienceType: current.type });
        await writeAudienceRelationships(tx, params.id, current.area, relationships);
        return { result: await loadAudience(tx, params.id), audiences: [params.id] };
      }),

    'relationships.create': async ({ body }) =>
      writeDefinitions(async (tx) => {
        const { source, ...input } = body;
        const [audience] = await rows<AudienceRow>(tx, sql`SELECT ${audienceColumns} FROM audiences a WHERE a.id = ${source} FOR UPDATE`);
        const [group] = audience ? [] : await rows<{ id: number }>(tx, sql`SELECT node_id AS id FROM audience_groups WHERE node_id = ${source} FOR UPDATE`);
        if (!audience && !group) throw new HttpError(404, MESSAGES.relationshipSourceNotFound);
        const owner = audience ? { audienceId: source } : { groupId: source };
        const [relationship] = await resolve(tx, [input], audience ? { audienceType: audience.type } : { groupId: source });
        const ownerColumn = sql.raw(audience ? 'audience_id' : 'group_id');
        await tx.execute(sql`DELETE FROM relationships WHERE ${ownerColumn} = ${source} AND node_id = ${relationship.nodeId}`);
        await insertRelationships(tx, owner, [relationship]);
        if (group) await tx.execute(sql`UPDATE audience_groups SET updated_at = now() WHERE node_id = ${source}`);
        const [row] = (audience ? await audienceRelationships(tx, [source]) : await groupRelationships(tx, [source])).filter((r) => r.nodeId === relationship.nodeId);
        return { result: toRelationship(row), ...(audience ? { audiences: [source] } : { groups: [source] }) };
      }),

    'graph.delete': async ({ body }) =>
      writeDefinitions(async (tx) => {
        const found = await nodesById(tx, body.nodes);
        if (found.some((node) => !isGroupLabel(node.label))) throw new HttpError(400, MESSAGES.onlyGroupsDeleted, {}, 'nodes');
        const owners = body.nodes.length ? await ownersOf(tx, body.nodes) : { audiences: [], groups: [] };
        const removed = await removeRelationships(tx, body.relationships, []);
        const deletedNodes = body.nodes.length ? await rows<{ id: number }>(tx, sql`DELETE FROM nodes WHERE id = ANY(${param(body.nodes)}::int[]) RETURNING id`) : [];
        return {
          result: { nodes: deletedNodes.length, relationships: removed.count },
          audiences: [...new Set([...owners.audiences, ...removed.audiences])],
          groups: [...new Set([...owners.groups, ...removed.groups])].filter((id) => !body.nodes.includes(id)),
          deletedNodes: deletedNodes.map((node) => node.id),
        };
      }),

    'graph.detach': async ({ body }) =>
      writeDefinitions(async (tx) => {
        const removed = await removeRelationships(tx, body.relationships, body.nodes);
        return { result: { nodes: body.nodes.length, relationships: removed.count }, audiences: removed.audiences, groups: removed.groups };
      }),

    'audiences.attachEmails': async ({ params, body }) =>
      writeDefinitions(async (tx) => {
        await audienceExists(tx, params.id);
        const wanted = [...new Set(body.emails.map((email) => email.trim().toLowerCase()))];
        const users = await rows<{ id: number; email: string }>(tx, sql`SELECT id, email FROM app_users WHERE lower(email) = ANY(${param(wanted)}::text[])`);
        const matched = new Set(users.map((user) => user.email.toLowerCase()));
        const nodes = await upsertNodes(tx, users.map((user) => ({ label: 'User', value: String(user.id), name: user.email })));
        const added = await rows(
          tx,
          sql`INSERT INTO relationships (audience_id, node_id, type, kind)
              SELECT ${params.id}, wanted.node_id, 'AND', 'required' FROM unnest(${param(nodes.map((node) => node.id))}::int[]) AS wanted(node_id)
              WHERE NOT EXISTS (SELECT 1 FROM relationships r WHERE r.audience_id = ${params.id} AND r.node_id = wanted.node_id) RETURNING id`,
        );
        return { result: { added: added.length, unmatched: wanted.filter((email) => !matched.has(email)) }, audiences: [params.id] };
      }),

    'audiences.search': async ({ query }) => {
      // Spec §5: empty terms, terms starting with ':' or holding , ' ( ) search nothing.
      if (/^:|[,'()]/.test(query.term)) return [];
      const found = await rows<AudienceRow>(
        db,
        sql`SELECT ${audienceColumns} FROM audiences a
            WHERE a.article_id IS NULL AND ${foldForSearch(sql`a.name`)} LIKE '%' || ${foldForSearch(sql`${query.term}`)} || '%' ${query.type ? sql`AND a.type = ${query.type}` : sql``}
            ORDER BY lower(a.name), a.id LIMIT ${query.limit}`,
      );
      return found.map((row) => ({ id: row.id, name: row.name, type: row.type, area: row.area, roles: row.roles }));
    },

    'groups.create': async ({ body }) =>
      writeDefinitions(async (tx) => {
        const id = await createGroup(tx, body.name, body.label);
        await insertRelationships(tx, { groupId: id }, await resolve(tx, body.relationships, { groupId: id }));
        return { result: await loadGroup(tx, id), groups: [id] };
      }),

    'groups.update': async ({ params, body }) =>
      writeDefinitions(async (tx) => {
        await groupExists(tx, params.id);
        if (body.name) await tx.execute(sql`UPDATE nodes SET name = ${body.name} WHERE id = ${params.id}`);
        if (body.relationships) {
          const members = await resolve(tx, body.relationships, { groupId: params.id });
          await tx.execute(sql`DELETE FROM relationships WHERE group_id = ${params.id}`);
          await insertRelationships(tx, { groupId: params.id }, members);
        }
        await tx.execute(sql`UPDATE audience_groups SET updated_at = now() WHERE node_id = ${params.id}`);
        return { result: await loadGroup(tx, params.id), groups: [params.id] };
      }),

    'groups.delete': async ({ params, body }) =>
      writeDefinitions(async (tx) => {
        const group = await groupExists(tx, params.id);
        if (group.name !== body.name) throw new HttpError(400, MESSAGES.groupNameMismatch, {}, 'name');
        const owners = await ownersOf(tx, [params.id]);
        await tx.execute(sql`DELETE FROM nodes WHERE id = ${params.id}`);
        return { result: { ok: true as const }, audiences: owners.audiences, groups: owners.groups, deletedNodes: [params.id] };
      }),

    'groups.get': async ({ params }) => loadGroup(db, params.id, params.label),

    'groups.list': async ({ query }) => {
      const where = query.term ? sql`AND ${foldForSearch(sql`n.name`)} LIKE '%' || ${foldForSearch(sql`${query.term}`)} || '%'` : sql``;
      const found = await rows<{ id: number; total: number }>(
        db,
        sql`SELECT g.node_id AS id, count(*) OVER ()::int AS total FROM audience_groups g JOIN nodes n ON n.id = g.node_id WHERE true ${where}
            ORDER BY lower(n.name), g.node_id LIMIT ${query.limit} OFFSET ${query.skip}`,
      );
      const items = [];
      for (const row of found) items.push(await loadGroup(db, row.id));
      return { items, total: found[0]?.total ?? 0 };
    },

    'groups.duplicate': async ({ params }) =>
      writeDefinitions(async (tx) => {
        const group = await groupExists(tx, params.id);
        const id = await createGroup(tx, `${group.name} (copie)`.slice(0, 200), group.label);
        await copyRelationships(tx, { groupId: params.id }, { groupId: id });
        return { result: await loadGroup(tx, id), groups: [id] };
      }),

    'groups.attachDocuments': async ({ body }) =>
      writeDefinitions(async (tx) => {
        await groupExists(tx, body.groupId);
        const documents = (await nodesById(tx, body.documents)).filter((node) => node.label === 'Document').map((node) => node.id);
        if (documents.length !== new Set(body.documents).size) throw new HttpError(400, MESSAGES.nodeNotFound, {}, 'documents');
        await tx.execute(
          sql`INSERT INTO relationships (group_id, node_id, type, kind)
              SELECT ${body.groupId}, wanted.node_id, 'AND', 'required' FROM unnest(${param(documents)}::int[]) AS wanted(node_id)
              WHERE NOT EXISTS (SELECT 1 FROM relationships r WHERE r.group_id = ${body.groupId} AND r.node_id = wanted.node_id)`,
        );
        await tx.execute(sql`UPDATE audience_groups SET updated_at = now() WHERE node_id = ${body.groupId}`);
        return { result: await loadGroup(tx, body.groupId), groups: [body.groupId] };
      }),
  };
}


