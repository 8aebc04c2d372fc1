export const groupsScreens = {
  'audiences.groups': { load: () => import('./GroupsListPage') },
  'audiences.groupEdit': { load: () => import('./GroupEditPage') },
};
