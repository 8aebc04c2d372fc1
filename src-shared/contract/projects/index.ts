import { briefingOperations } from './briefings';
import { commentOperations } from './comments';
import { estimateOperations } from './estimates';
import { projectResourceOperations, projectSearchOperations } from './projects';
import { targetOperations } from './targets';

/** The Projects menu's operations (spec §6, §7), in the order the OpenAPI document lists them. */
export const projectOperations = {
  ...projectResourceOperations,
  ...targetOperations,
  ...commentOperations,
  ...briefingOperations,
  ...projectSearchOperations,
  ...estimateOperations,
};
