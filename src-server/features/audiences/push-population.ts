import { sql } from 'drizzle-orm';
import { PUSH_TOKEN_LABEL } from '@shared/rules/push';
import type { ServerContext } from '../../context';
import type { PopulationSelection } from '../../feature-services';
import type { AudienceEngine } from './engine/engine';
import { param, rows } from '../../db/rows';

/**
 * What the push feature reads of the population (docs/push.md): counts and members of push targetings from the
 * engine's bitmaps (never a table scan), and the PushToken set kept right when a provider drops tokens.
 */
export function populationSelection(context: ServerContext, engine: AudienceEngine): PopulationSelection {
  return {
    count: (criteria) => engine.index.count(criteria),
    members: (criteria) => engine.index.select(criteria).serialize('portable'),
    async pushTokensRemoved(userIds) {
      if (!userIds.length) return;
      const users: { id: number; before: [string, string][]; after: [string, string][] }[] = [];
      await context.db.transaction(async (tx) => {
        await engine.ownTransaction(tx);
        const left = await rows<{ id: number }>(
          tx,
          sql`SELECT u.id FROM unnest(${param(userIds)}::int[]) AS u(id) WHERE NOT EXISTS (SELECT 1 FROM app_user_push_tokens t WHERE t.user_id = u.id)`,
        );
        for (const { id } of left) users.push({ id, before: [[PUSH_TOKEN_LABEL, 'any']], after: [] });
        if (users.length) await engine.publish(tx, { kind: 'users', payload: { users } });
      });
      engine.applyUsers({ kind: 'users', payload: { users } });
    },
  };
}
