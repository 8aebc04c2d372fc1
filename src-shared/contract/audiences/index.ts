import { appUserOperations } from './app-users';
import { audienceResourceOperations, audienceSizeOperations } from './audiences';
import { groupOperations } from './groups';
import { nodeOperations } from './nodes';
import { populationOperations } from './population';

/** The Audiences menu's operations and the population feed, in the order the OpenAPI document lists them. */
export const audienceOperations = {
  ...populationOperations,
  ...audienceSizeOperations,
  ...appUserOperations,
  ...nodeOperations,
  ...audienceResourceOperations,
  ...groupOperations,
};
