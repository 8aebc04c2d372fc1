import type { laboratoryOperations } from '@shared/contract/laboratory';
import type { ServerContext } from '../../context';
import { defineFeature } from '../../feature-wiring';
import type { Handlers } from '../../operations';
import { labAccountHandlers } from './handlers/accounts';
import { labProjectHandlers } from './handlers/projects';
import { labTagHandlers } from './handlers/tags';
import { sweepExpiredLeases } from '../../jobs/lease';
import { PanelCounts } from './panel-cache';
import { removeExpiredLoads } from './queries';

type LaboratoryHandlers = Pick<Handlers, keyof typeof laboratoryOperations>;

/**
 * Laboratory projects ("Alphonse", docs/laboratory.md): panels read streamed from their CSV, tags whose queries (the shared
 * filter language) count panel members (held in memory column by column, panel-cache.ts; SQL is the reference), and the accounts allowed on each project. The demo workspace's
 * project is seeded by src-server/demo.
 */
export const laboratoryFeature = defineFeature({
  name: 'laboratory',
  needs: ['populationVersion'],
  provides: [],
  build: (context, { populationVersion }) => ({ handlers: laboratoryHandlers(context, populationVersion) }),
});

function laboratoryHandlers(context: ServerContext, populationVersion: () => number): LaboratoryHandlers {
  const panels = new PanelCounts(context, populationVersion);
  // A panel load whose instance died stays pending with its rows no more: removed, as a failed load is.
  sweepExpiredLeases(context, 'laboratory panels', async () => {
    for (const id of await removeExpiredLoads(context.db)) panels.forget(id);
  });
  return { ...labProjectHandlers(context, panels), ...labTagHandlers(context, panels), ...labAccountHandlers(context) };
}
