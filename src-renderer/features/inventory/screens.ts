import type { FeatureScreens } from '../../lib/screen-sources';
export const inventoryScreens = { 'projects.inventory': { load: () => import('./InventoryPage') } } satisfies FeatureScreens;
