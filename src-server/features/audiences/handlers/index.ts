import type { ServerContext } from '../../../context';
import { featureServices } from '../../../feature-services';
import { definitionsWriter, type DefinitionWriteHooks } from '../definitions';
import type { AudienceEngine } from '../engine/engine';
import { articleAudienceService } from './article-audience';
import { audienceDefinitionHandlers, type AudienceDefinitionHandlers } from './audience-definitions';
import { groupHandlers, type GroupHandlers } from './groups';
import type { AudienceFeatureParts } from './parts';
import { populationHandlers, type PopulationHandlers } from './population';

export type { DefinitionWriteHooks } from '../definitions';

export type AudienceHandlers = AudienceDefinitionHandlers & GroupHandlers & PopulationHandlers;

/** The audiences feature's operations, one file per resource, over one writer of definitions. */
export function audienceHandlers(context: ServerContext, engine: AudienceEngine, hooks?: DefinitionWriteHooks): AudienceHandlers {
  const parts: AudienceFeatureParts = { context, engine, write: definitionsWriter(context.db, engine, hooks) };
  hooks?.connect?.(parts.write);
  featureServices(context).articleAudience = articleAudienceService(parts);
  return { ...populationHandlers(parts), ...audienceDefinitionHandlers(parts), ...groupHandlers(parts) };
}
