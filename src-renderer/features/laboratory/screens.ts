export const laboratoryScreens = {
  alphonse: { load: () => import('./AlphonseListPage') },
  'alphonse.project': { load: () => import('./LabProjectPage') },
};
