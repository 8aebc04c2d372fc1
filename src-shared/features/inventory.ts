import { INVENTORY_MESSAGES, INVENTORY_NOTICES } from '../messages/inventory';
import { inventoryReaders } from '../access-rules';
import { access } from '../roles';
import { INVENTORY_FORMATS } from '../rules/inventory';
import { screen, defineFeature } from './define';

/**
 * The view inventory (platform.md §2 "Inventory dashboard"; docs/inventory.md). 'Pilotage inventaire' is in CSM_LEAD's
 * Projets menu only (this-role, no ADMIN bypass); ADMIN still opens the page (§6: its export, import and
 * availability search). The screen keeps its id of the Projets menu.
 */
export const inventoryFeature = defineFeature({
  id: 'inventory',
  screens: [
    screen({
      id: 'projects.inventory',
      path: '/inventory',
      access: inventoryReaders,
      nav: { position: 12, menu: 'projects', label: 'Pilotage inventaire', access: access.thisRole('CSM_LEAD') },
    }),
  ],
  messages: [INVENTORY_MESSAGES, INVENTORY_NOTICES],
  uploads: { 'inventory.upload': INVENTORY_FORMATS },
});
