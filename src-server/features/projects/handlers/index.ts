import type { ServerContext } from '../../../context';
import type { EstimateSource } from '../estimates';
import { briefingHandlers, type BriefingHandlers } from './briefings';
import { commentHandlers, type CommentHandlers } from './comments';
import { estimateHandlers, type EstimateHandlers } from './estimates';
import { projectResourceHandlers, type ProjectResourceHandlers } from './projects';
import type { ProjectFeatureParts } from './shared';
import { targetHandlers, type TargetHandlers } from './targets';

export type ProjectHandlers = ProjectResourceHandlers & TargetHandlers & CommentHandlers & BriefingHandlers & EstimateHandlers;

/** The projects feature's operations, one file per resource. */
export function projectHandlers(context: ServerContext, estimates: EstimateSource): ProjectHandlers {
  const parts: ProjectFeatureParts = { context, year: () => context.clock.now().getUTCFullYear() };
  return {
    ...projectResourceHandlers(parts),
    ...targetHandlers(parts),
    ...commentHandlers(parts),
    ...briefingHandlers(parts),
    ...estimateHandlers(parts, estimates),
  };
}
