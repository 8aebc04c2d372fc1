import type { FeatureScreens } from '../../lib/screen-sources';
export const groupsScreens = {
  'audiences.groups': { load: () => import('./GroupsListPage') },
  'audiences.groupEdit': { load: () => import('./GroupEditPage') },
} satisfies FeatureScreens;
