export const inventoryScreens = { 'projects.inventory': { load: () => import('./InventoryPage') } };
