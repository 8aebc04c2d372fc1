import type { ServerContext } from '../../../context';
import type { ArticleAudienceService } from '../../../feature-services';
import { definitionsWriter, type DefinitionWriteHooks } from '../definitions';
import type { AudienceEngine } from '../engine/engine';
import { articleAudienceService } from './article-audience';
import { audienceDefinitionHandlers, type AudienceDefinitionHandlers } from './audience-definitions';
import { groupHandlers, type GroupHandlers } from './groups';
import type { AudienceFeatureParts } from './parts';
import { populationHandlers, type PopulationHandlers } from './population';

export type { DefinitionWriteHooks } from '../definitions';
export { audienceDebugHandlers } from './debug';

export type AudienceHandlers = AudienceDefinitionHandlers & GroupHandlers & PopulationHandlers;

/**
 * The audiences feature's operations, one file per resource, over one writer of definitions; and the articles' own
 * audiences, written through it (offered to the adverts feature).
 */
export function audienceHandlers(
  context: ServerContext,
  engine: AudienceEngine,
  hooks?: DefinitionWriteHooks,
): { handlers: AudienceHandlers; articleAudience: ArticleAudienceService } {
  const parts: AudienceFeatureParts = { context, engine, write: definitionsWriter(context.db, engine, hooks) };
  hooks?.connect?.(parts.write);
  return {
    handlers: { ...populationHandlers(parts), ...audienceDefinitionHandlers(parts), ...groupHandlers(parts) },
    articleAudience: articleAudienceService(parts),
  };
}
