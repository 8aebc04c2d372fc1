import { MESSAGES } from '@shared/messages';
import { isGroupLabel } from '@shared/rules/audiences';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import {
  audienceSummary,
  claimAudience,
  authorName,
  areaRelationship,
  loadAudience,
  lockedAudience,
  resolveRelationships,
  toRelationship,
  writeAudienceRelationships,
} from '../definitions';
import { appUsersByEmails } from '../queries/population';
import {
  attachNodes,
  audienceRelationships,
  copyRelationships,
  deleteRelationshipPairs,
  deleteRelationshipsOf,
  groupRelationships,
  insertRelationships,
  relationshipOwners,
} from '../queries/relationships';
import {
  audienceRow,
  deleteAudiences,
  hasKeywordCriterion,
  insertAudience,
  listAudiences,
  nextDefinitionId,
  searchAudiences,
  touchAudience,
  updateAudience,
} from '../queries/audience-definitions';
import { deleteNodes, nodesById, searchNodes, upsertNodes } from '../queries/nodes';
import { lockGroup, touchGroup } from '../queries/groups';
import type { Executor } from '../../../db/rows';
import type { AudienceFeatureParts } from './parts';

export type AudienceDefinitionHandlers = Pick<
  Handlers,
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
  | 'audiences.matchEmails'
  | 'audiences.search'
>;

const ownerIds = (owners: { audienceId: number | null; groupId: number | null }[]) => ({
  audiences: [...new Set(owners.flatMap((owner) => (owner.audienceId ? [owner.audienceId] : [])))],
  groups: [...new Set(owners.flatMap((owner) => (owner.groupId ? [owner.groupId] : [])))],
});

/** Removes relationships by (source, target) and, for `nodes`, every relationship to them; answers whose changed. */
async function removeRelationships(executor: Executor, pairs: { source: number; target: number }[], nodes: number[]) {
  const removed = await deleteRelationshipPairs(executor, pairs, nodes);
  return { count: removed.length, ...ownerIds(removed) };
}

/** Criteria search and the audiences' list, editor and picker lookups: nothing here writes. */
function audienceLookupHandlers({
  context,
}: AudienceFeatureParts): Pick<
  AudienceDefinitionHandlers,
  'nodes.search' | 'nodes.keyword' | 'audiences.list' | 'audiences.get' | 'audiences.search'
> {
  const { db } = context;
  return {
    'nodes.search': async ({ query }) => {
      const found = await searchNodes(db, {
        term: query.term,
        limit: query.limit,
        label: query.label,
        userDomains: query.isGroup === 'true' ? null : context.config.companyEmailDomains,
        excludeAttachedTo: { audienceId: query.audienceId, groupId: query.groupId },
        // Spec §4: Feed, Document, App first on the group page only; elsewhere the criteria ranking (docs/audiences.md, criteria search).
        order: query.isGroup === 'true' ? 'group' : 'criteria',
      });
      return found.map(({ id, label, name }) => ({ id, label, name }));
    },

    'nodes.keyword': async ({ body }) => {
      const [node] = await upsertNodes(db, [{ label: 'Keyword', value: body.name, name: body.name }]);
      return { id: node.id, label: node.label, name: node.name };
    },

    'audiences.list': async ({ query }) => {
      const { found, total } = await listAudiences(db, query);
      return { items: found.map(audienceSummary), total };
    },

    'audiences.get': async ({ params }) => loadAudience(db, params.id),

    'audiences.search': async ({ query }) => {
      // Spec §5: empty terms, terms starting with ':' or holding , ' ( ) search nothing.
      if (/^:|[,'()]/.test(query.term)) return [];
      const found = await searchAudiences(db, query.term, query.type, query.limit);
      return found.map((row) => ({ id: row.id, name: row.name, type: row.type, area: row.area, roles: row.roles }));
    },
  };
}

/** An audience's own writes: create, edit, copy, delete, its criteria and the users attached by email. */
function audienceEditHandlers({
  context,
  engine,
  write,
}: AudienceFeatureParts): Pick<
  AudienceDefinitionHandlers,
  | 'audiences.create'
  | 'audiences.update'
  | 'audiences.duplicate'
  | 'audiences.delete'
  | 'audiences.bulkDelete'
  | 'audiences.setRelationships'
  | 'audiences.attachEmails'
  | 'audiences.matchEmails'
> {
  const { db } = context;
  return {
    'audiences.create': async ({ body, account }) => {
      const author = await authorName(db, account?.id);
      return write(async (tx) => {
        const relationships = await resolveRelationships(tx, engine, body.relationships, { audienceType: body.type ?? null });
        const id = await nextDefinitionId(tx);
        const name = body.name || `Audience ${id}`;
        await insertAudience(tx, {
          id,
          name,
          type: body.type ?? null,
          area: body.area,
          isInCatalog: body.isInCatalog,
          authorId: account?.id ?? null,
          authorName: author,
        });
        await writeAudienceRelationships(tx, id, body.area, relationships);
        return { result: await loadAudience(tx, id), audiences: [id] };
      });
    },

    'audiences.update': async ({ params, body, account }) =>
      write(async (tx) => {
        const current = await lockedAudience(tx, params.id);
        await claimAudience(tx, current, body.version, account?.id ?? null);
        // A type is never taken away (the editor asks for one: docs/audiences.md); said at the field, in French.
        if (body.type === null) throw new HttpError(400, MESSAGES.fieldRequired(MESSAGES.audienceTypeLabel), {}, 'type');
        if (body.name === '') throw new HttpError(400, MESSAGES.fieldRequired(MESSAGES.audienceNameLabel), {}, 'name');
        const type = body.type === undefined ? current.type : body.type;
        if (type === 'timeline' && (await hasKeywordCriterion(tx, params.id))) throw new HttpError(400, MESSAGES.keywordOnTimeline, {}, 'type');
        await updateAudience(tx, params.id, {
          name: body.name ?? current.name,
          type,
          area: body.area ?? current.area,
          isInCatalog: body.isInCatalog ?? current.isInCatalog,
        });
        if (body.area && body.area !== current.area) {
          // Changing the area removes the old Area relationship and adds the new one (spec §4).
          await deleteRelationshipsOf(tx, { audienceId: params.id }, 'Area');
          await insertRelationships(tx, { audienceId: params.id }, [await areaRelationship(tx, body.area)]);
        }
        return { result: await loadAudience(tx, params.id), audiences: [params.id] };
      }),

    'audiences.duplicate': async ({ params, account }) => {
      const author = await authorName(db, account?.id);
      return write(async (tx) => {
        const current = await lockedAudience(tx, params.id);
        const id = await nextDefinitionId(tx);
        const name = `${current.name} (copie)`.slice(0, 200);
        await insertAudience(tx, {
          id,
          name,
          type: current.type,
          area: current.area,
          isInCatalog: current.isInCatalog,
          authorId: account?.id ?? null,
          authorName: author,
        });
        await copyRelationships(tx, { audienceId: params.id }, { audienceId: id });
        return { result: await loadAudience(tx, id), audiences: [id] };
      });
    },

    'audiences.delete': async ({ params, query, account }) =>
      write(async (tx) => {
        if (query.version !== undefined) await claimAudience(tx, await lockedAudience(tx, params.id), query.version, account?.id ?? null);
        const deleted = await deleteAudiences(tx, [params.id]);
        if (!deleted.length) throw new HttpError(404, MESSAGES.audienceNotFound);
        return { result: { ok: true as const }, audiences: [params.id] };
      }),

    'audiences.bulkDelete': async ({ body }) =>
      write(async (tx) => {
        const deleted = await deleteAudiences(tx, body.ids);
        return { result: { deleted: deleted.length }, audiences: deleted };
      }),

    'audiences.setRelationships': async ({ params, body, account }) =>
      write(async (tx) => {
        const current = await lockedAudience(tx, params.id);
        await claimAudience(tx, current, body.version, account?.id ?? null);
        // Spec §4: an audience is saved with at least one criterion besides its area (the editor says so first).
        if (!body.relationships.some((relationship) => relationship.node.label !== 'Area'))
          throw new HttpError(400, MESSAGES.audienceNeedsCriterion, {}, 'relationships');
        const relationships = await resolveRelationships(tx, engine, body.relationships, { audienceType: current.type });
        await writeAudienceRelationships(tx, params.id, current.area, relationships);
        return { result: await loadAudience(tx, params.id), audiences: [params.id] };
      }),

    'audiences.attachEmails': async ({ params, body, account }) =>
      write(async (tx) => {
        await claimAudience(tx, await lockedAudience(tx, params.id), undefined, account?.id ?? null);
        const wanted = [...new Set(body.emails.map((email) => email.trim().toLowerCase()))];
        const users = await appUsersByEmails(tx, wanted);
        const matched = new Set(users.map((user) => user.email.toLowerCase()));
        const nodes = await upsertNodes(
          tx,
          users.map((user) => ({ label: 'User', value: String(user.id), name: user.email })),
        );
        const added = await attachNodes(
          tx,
          { audienceId: params.id },
          nodes.map((node) => node.id),
        );
        return { result: { added, unmatched: wanted.filter((email) => !matched.has(email)) }, audiences: [params.id] };
      }),

    // The editor asks first for a new audience without a criterion: it is created only if the list knows someone.
    'audiences.matchEmails': async ({ body }) => {
      const wanted = [...new Set(body.emails.map((email) => email.trim().toLowerCase()))];
      const matched = new Set((await appUsersByEmails(db, wanted)).map((user) => user.email.toLowerCase()));
      return { known: matched.size, unmatched: wanted.filter((email) => !matched.has(email)) };
    },
  };
}

/** One relationship added to an audience or group, and the graph view's deletions. */
function relationshipEditHandlers({
  engine,
  write,
}: AudienceFeatureParts): Pick<AudienceDefinitionHandlers, 'relationships.create' | 'graph.delete' | 'graph.detach'> {
  return {
    'relationships.create': async ({ body, account }) =>
      write(async (tx) => {
        const { source, ...input } = body;
        const audience = await audienceRow(tx, source, true);
        const group = audience ? undefined : await lockGroup(tx, source);
        if (!audience && !group) throw new HttpError(404, MESSAGES.relationshipSourceNotFound);
        const owner = audience ? { audienceId: source } : { groupId: source };
        const [relationship] = await resolveRelationships(tx, engine, [input], audience ? { audienceType: audience.type } : { groupId: source });
        await deleteRelationshipsOf(tx, owner, { nodeId: relationship.nodeId });
        await insertRelationships(tx, owner, [relationship]);
        // The owner's version moves on: an editor open on it sees the change (docs/architecture.md).
        if (group) await touchGroup(tx, source, account?.id ?? null);
        else await touchAudience(tx, source, account?.id ?? null);
        const [row] = (audience ? await audienceRelationships(tx, [source]) : await groupRelationships(tx, [source])).filter(
          (r) => r.nodeId === relationship.nodeId,
        );
        return { result: toRelationship(row), ...(audience ? { audiences: [source] } : { groups: [source] }) };
      }),

    'graph.delete': async ({ body, account }) =>
      write(async (tx) => {
        const found = await nodesById(tx, body.nodes);
        if (found.some((node) => !isGroupLabel(node.label))) throw new HttpError(400, MESSAGES.onlyGroupsDeleted, {}, 'nodes');
        const owners = body.nodes.length ? ownerIds(await relationshipOwners(tx, body.nodes)) : { audiences: [], groups: [] };
        const removed = await removeRelationships(tx, body.relationships, []);
        const deletedNodes = body.nodes.length ? await deleteNodes(tx, body.nodes) : [];
        const changed = {
          audiences: [...new Set([...owners.audiences, ...removed.audiences])],
          groups: [...new Set([...owners.groups, ...removed.groups])].filter((id) => !body.nodes.includes(id)),
        };
        await touchOwners(tx, changed, account?.id ?? null);
        return { result: { nodes: deletedNodes.length, relationships: removed.count }, ...changed, deletedNodes };
      }),

    'graph.detach': async ({ body, account }) =>
      write(async (tx) => {
        const removed = await removeRelationships(tx, body.relationships, body.nodes);
        await touchOwners(tx, removed, account?.id ?? null);
        return { result: { nodes: body.nodes.length, relationships: removed.count }, audiences: removed.audiences, groups: removed.groups };
      }),
  };
}

/** The audiences and groups whose relationships a graph edit changed: their versions move on. */
async function touchOwners(tx: Executor, owners: { audiences: number[]; groups: number[] }, by: number | null): Promise<void> {
  for (const id of owners.audiences) await touchAudience(tx, id, by);
  for (const id of owners.groups) await touchGroup(tx, id, by);
}

/** Audiences: their list, their editor (criteria search, relationships) and the graph view's deletions. */
export function audienceDefinitionHandlers(parts: AudienceFeatureParts): AudienceDefinitionHandlers {
  return { ...audienceLookupHandlers(parts), ...audienceEditHandlers(parts), ...relationshipEditHandlers(parts) };
}
