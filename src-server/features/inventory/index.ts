import { defineFeature } from '../../feature-wiring';
import { inventoryHandlers } from './handlers/inventory';

/**
 * The view inventory (docs/inventory.md): capacity imported from CSV, consumption computed from the targets at each read.
 * The demo workspace's capacity file (consistent with the demo projects' targets) is seeded by src-server/demo.
 */
export const inventoryFeature = defineFeature({
  name: 'inventory',
  needs: [],
  provides: [],
  build: (context) => ({ handlers: inventoryHandlers(context) }),
});
