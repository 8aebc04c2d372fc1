import type { ServerContext } from '../../context';
import { defineFeature } from '../../feature-wiring';
import { seedInventoryDemo } from './demo';
import { inventoryHandlers, type InventoryHandlers } from './handlers/inventory';

/**
 * The view inventory (docs/inventory.md): capacity imported from CSV, consumption computed from the targets at each read.
 * The demo workspace gets a capacity file once (none stored yet), consistent with the demo projects' targets.
 */
export const inventoryFeature = defineFeature({
  name: 'inventory',
  needs: [],
  provides: [],
  build: async (context) => ({ handlers: await inventoryHandlersOf(context) }),
});

async function inventoryHandlersOf(context: ServerContext): Promise<InventoryHandlers> {
  // The demo workspace (either switch of server.ts's demo: with or without its app users).
  if (context.config.seedAudienceDemo || context.config.seedStorageDemo) {
    await seedInventoryDemo(context.db, context.clock.now()).catch((error) => context.logger.error({ err: error }, 'inventory demo seeding failed'));
  }
  return inventoryHandlers(context);
}
