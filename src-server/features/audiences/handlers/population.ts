import type { Audience } from '@shared/contract/audiences/audiences';
import type { RelationshipInput } from '@shared/contract/audiences/shared';
import { MESSAGES } from '@shared/messages';
import type { AudienceType } from '@shared/rules/audiences';
import { HttpError } from '../../../errors';
import type { Handlers } from '../../../operations';
import { resolveRelationships } from '../definitions';
import { GroupCycleError, type Criterion } from '../engine/semantics';
import { ingestEvents, ingestUsers, PGLITE_USERS_PER_TRANSACTION } from '../population';
import { withPopulationWrites } from '../short-merge';
import { appUserExists, deleteUserEvents, usersByEmailPrefix } from '../queries/population';
import { nodesById } from '../queries/nodes';
import type { AudienceFeatureParts } from './parts';

export type PopulationHandlers = Pick<
  Handlers,
  'population.users' | 'population.events' | 'audiences.size' | 'audiences.membership' | 'appUsers.byEmail' | 'appUsers.search' | 'appUsers.reset'
>;

function withCycleCheck<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GroupCycleError) throw new HttpError(400, MESSAGES.groupCycle);
    throw error;
  }
}

/** The app-user population: its feed, its users, and which of them an audience (saved or not) matches. */
export function populationHandlers({ context, engine }: AudienceFeatureParts): PopulationHandlers {
  const { db } = context;

  /** The criteria of an unsaved definition (the editor's live size and tester), its Area first. */
  async function unsavedCriteria(body: {
    area: Audience['area'];
    type?: AudienceType | null;
    relationships: RelationshipInput[];
  }): Promise<Criterion[]> {
    const resolved = await resolveRelationships(db, engine, body.relationships, { audienceType: body.type ?? null });
    const nodes = new Map(
      (
        await nodesById(
          db,
          resolved.map((r) => r.nodeId),
        )
      ).map((node) => [node.id, node]),
    );
    const criteria: Criterion[] = resolved.map((r) => ({ ...r, label: nodes.get(r.nodeId)!.label, value: nodes.get(r.nodeId)!.value }));
    criteria.unshift({ nodeId: 0, label: 'Area', value: body.area, type: 'AND', kind: 'required', event: null, caping: null });
    return criteria;
  }

  async function assertAppUser(userId: number): Promise<void> {
    if (!(await appUserExists(db, userId))) throw new HttpError(404, MESSAGES.appUserNotFound);
  }

  return {
    'population.users': async ({ body }) =>
      context.dbKind === 'pglite'
        ? withPopulationWrites(engine, () => ingestUsers(db, engine, body, { usersPerTransaction: PGLITE_USERS_PER_TRANSACTION }))
        : ingestUsers(db, engine, body),
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
      await assertAppUser(body.userId);
      const criteria = await unsavedCriteria(body);
      return withCycleCheck(() => engine.index.explain(body.userId, criteria));
    },

    'appUsers.byEmail': async ({ query }) => usersByEmailPrefix(db, query.email, 25),
    'appUsers.search': async ({ body }) => usersByEmailPrefix(db, body.term, body.limit),

    'appUsers.reset': async ({ params }) => {
      let pairs: [number, string][] = [];
      await db.transaction(async (tx) => {
        await engine.ownTransaction(tx);
        if (!(await appUserExists(tx, params.userId, true))) throw new HttpError(404, MESSAGES.appUserNotFound);
        const removed = await deleteUserEvents(tx, params.userId);
        pairs = [...new Map(removed.map((row) => [`${row.nodeId}\u0000${row.event}`, [row.nodeId, row.event] as [number, string]])).values()];
        await engine.publish(tx, { kind: 'reset', payload: { userId: params.userId, pairs } });
      });
      engine.resetUser(params.userId, pairs);
      return { id: params.userId, relsCount: 0 };
    },
  };
}
