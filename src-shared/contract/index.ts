import { adminOperations } from './admin';
import { audienceHistoryOperations } from './audience-history';
import { advertMediaOperations } from './advert-media';
import { advertOperations } from './adverts';
import { articleOperations } from './articles';
import { decisioningOperations } from './decisioning';
import { audienceOperations } from './audiences';
import { authOperations } from './auth';
import { batOperations } from './bat';
import { laboratoryOperations } from './laboratory';
import { importOperations } from './imports';
import { inventoryOperations } from './inventory';
import { metaOperations } from './meta';
import { projectOperations } from './projects';
import { presenceOperations } from './presence';
import { pushOperations } from './push';
import { setupOperations } from './setup';
import { storageOperations } from './storage';

export * from './define';
export * from './entities';
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './auth';

/** Every API operation, by id. A new endpoint is one entry here plus one server handler. */
export const contract = {
  ...authOperations,
  ...adminOperations,
  ...metaOperations,
  ...setupOperations,
  ...audienceOperations,
  ...audienceHistoryOperations,
  ...storageOperations,
  ...advertOperations,
  ...advertMediaOperations,
  ...articleOperations,
  ...decisioningOperations,
  ...projectOperations,
  ...batOperations,
  ...laboratoryOperations,
  ...importOperations,
  ...inventoryOperations,
  ...pushOperations,
  ...presenceOperations,
};

export type Contract = typeof contract;
export type OperationId = keyof Contract;

export const operationIds = Object.keys(contract) as OperationId[];
