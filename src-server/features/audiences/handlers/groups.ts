import { MESSAGES } from '@shared/messages';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { claimGroup, loadGroup, lockedGroup, resolveRelationships } from '../definitions';
import { attachNodes, copyRelationships, deleteRelationshipsOf, insertRelationships, relationshipOwners } from '../queries/relationships';
import { deleteNodes, nodesById, renameNode } from '../queries/nodes';
import { groupIdsPage, insertGroup, touchGroup } from '../queries/groups';
import type { AudienceFeatureParts } from './parts';

export type GroupHandlers = Pick<
  Handlers,
  'groups.create' | 'groups.update' | 'groups.delete' | 'groups.get' | 'groups.list' | 'groups.duplicate' | 'groups.attachDocuments'
>;

/** Groups (OrGroup, AndGroup): nodes that gather criteria, used by audiences and other groups. */
export function groupHandlers({ context, engine, write }: AudienceFeatureParts): GroupHandlers {
  const { db } = context;
  return {
    'groups.create': async ({ body }) =>
      write(async (tx) => {
        const id = await insertGroup(tx, body.name, body.label);
        await insertRelationships(tx, { groupId: id }, await resolveRelationships(tx, engine, body.relationships, { groupId: id }));
        return { result: await loadGroup(tx, id), groups: [id] };
      }),

    'groups.update': async ({ params, body, account }) =>
      write(async (tx) => {
        await claimGroup(tx, params.id, await lockedGroup(tx, params.id), body.version, account?.id ?? null);
        if (body.name) await renameNode(tx, params.id, body.name);
        if (body.relationships) {
          const members = await resolveRelationships(tx, engine, body.relationships, { groupId: params.id });
          await deleteRelationshipsOf(tx, { groupId: params.id });
          await insertRelationships(tx, { groupId: params.id }, members);
        }
        return { result: await loadGroup(tx, params.id), groups: [params.id] };
      }),

    'groups.delete': async ({ params, body, account }) =>
      write(async (tx) => {
        const group = await lockedGroup(tx, params.id);
        await claimGroup(tx, params.id, group, body.version, account?.id ?? null);
        if (group.name !== body.name) throw new HttpError(400, MESSAGES.groupNameMismatch, {}, 'name');
        const owners = await relationshipOwners(tx, [params.id]);
        await deleteNodes(tx, [params.id]);
        return {
          result: { ok: true as const },
          audiences: owners.flatMap((owner) => (owner.audienceId ? [owner.audienceId] : [])),
          groups: owners.flatMap((owner) => (owner.groupId ? [owner.groupId] : [])),
          deletedNodes: [params.id],
        };
      }),

    'groups.get': async ({ params }) => loadGroup(db, params.id, params.label),

    'groups.list': async ({ query }) => {
      const found = await groupIdsPage(db, query.term, query.limit, query.skip);
      const items = [];
      for (const row of found) items.push(await loadGroup(db, row.id));
      return { items, total: found[0]?.total ?? 0 };
    },

    'groups.duplicate': async ({ params }) =>
      write(async (tx) => {
        const group = await lockedGroup(tx, params.id);
        const id = await insertGroup(tx, `${group.name} (copie)`.slice(0, 200), group.label);
        await copyRelationships(tx, { groupId: params.id }, { groupId: id });
        return { result: await loadGroup(tx, id), groups: [id] };
      }),

    'groups.attachDocuments': async ({ body, account }) =>
      write(async (tx) => {
        await lockedGroup(tx, body.groupId);
        const documents = (await nodesById(tx, body.documents)).filter((node) => node.label === 'Document').map((node) => node.id);
        if (documents.length !== new Set(body.documents).size) throw new HttpError(400, MESSAGES.nodeNotFound, {}, 'documents');
        await attachNodes(tx, { groupId: body.groupId }, documents);
        await touchGroup(tx, body.groupId, account?.id ?? null);
        return { result: await loadGroup(tx, body.groupId), groups: [body.groupId] };
      }),
  };
}
